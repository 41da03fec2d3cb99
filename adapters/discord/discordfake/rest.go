package discordfake

// The REST API's plumbing (the token check, errors and answers as JSON), the gateway's URL, and
// the users and channels.

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

func (f *Fake) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bot "+Token {
			apiError(w, http.StatusUnauthorized, 0, "401: Unauthorized")
			return
		}
		f.Mu.Lock()
		defer f.Mu.Unlock()
		h(w, r)
	}
}

func apiError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]any{"code": code, "message": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *Fake) gateway(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
}

func userJSON(u User) map[string]any {
	disc := u.Discriminator
	if disc == "" {
		disc = "0"
	}
	return map[string]any{"id": u.ID, "username": u.Name, "discriminator": disc, "global_name": nil, "avatar": nil, "bot": u.Bot}
}

func (f *Fake) getUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id == "@me" {
		id = BotID
	}
	u, ok := f.Users[id]
	if !ok {
		apiError(w, 404, 10013, "Unknown User")
		return
	}
	writeJSON(w, 200, userJSON(u))
}

func (f *Fake) channelJSON(c *Channel) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type}
	if c.Type == 1 {
		recipients := []any{}
		for _, id := range c.Recipients {
			recipients = append(recipients, userJSON(f.Users[id]))
		}
		m["recipients"] = recipients
	}
	if c.Guild != "" {
		m["guild_id"] = c.Guild
	}
	if c.Parent != "" {
		m["parent_id"] = c.Parent
	}
	if c.Type != 1 {
		m["permission_overwrites"] = overwritesJSON(c.Overwrites)
	}
	return m
}

func (f *Fake) getChannel(w http.ResponseWriter, r *http.Request) {
	c, ok := f.Channels[r.PathValue("ch")]
	if !ok {
		apiError(w, 404, 10003, "Unknown Channel")
		return
	}
	writeJSON(w, 200, f.channelJSON(c))
}

// threadMember serves GET /channels/{thread}/thread-members/{user}: the member, or 404 Unknown
// Member when the user has not joined the thread.
func (f *Fake) threadMember(w http.ResponseWriter, r *http.Request) {
	c, ok := f.Channels[r.PathValue("ch")]
	switch {
	case !ok:
		apiError(w, 404, 10003, "Unknown Channel")
	case c.Type != 11 && c.Type != 12:
		apiError(w, 400, 50024, "Cannot execute action on this channel type")
	case !slices.Contains(c.ThreadMembers, r.PathValue("u")):
		apiError(w, 404, 10007, "Unknown Member")
	default:
		writeJSON(w, 200, map[string]any{"id": c.ID, "user_id": r.PathValue("u"), "join_timestamp": "2026-01-01T00:00:00.000000+00:00", "flags": 0})
	}
}
