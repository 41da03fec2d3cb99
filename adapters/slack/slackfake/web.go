package slackfake

// The Web API's plumbing (the token check, answers as JSON) and the methods that describe the
// workspace: auth.test, users.info, conversations.info and usergroups.list.

import (
	"encoding/json"
	"net/http"
)

// web checks the token (Authorization header or token form field, as the client sends it) and
// answers with what h returns, as JSON.
func (f *Fake) web(token string, h func(r *http.Request) map[string]any) http.HandlerFunc {
	return f.webAs([]string{token}, func(r *http.Request, _ string) map[string]any { return h(r) })
}

// webAs is web for a method that accepts any of tokens; h learns which one was sent.
func (f *Fake) webAs(tokens []string, h func(r *http.Request, token string) map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res := map[string]any{"ok": false, "error": "invalid_auth"}
		for _, token := range tokens {
			if r.Header.Get("Authorization") == "Bearer "+token || r.PostForm.Get("token") == token {
				f.Mu.Lock()
				res = h(r, token)
				f.Mu.Unlock()
				break
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	}
}

func fail(code string) map[string]any { return map[string]any{"ok": false, "error": code} }

func (f *Fake) authTest(*http.Request) map[string]any {
	return map[string]any{"ok": true, "url": "https://eos-test.slack.com/", "team": "Eos", "user": "eos",
		"team_id": "T0001", "user_id": BotID, "bot_id": "BBOT"}
}

func (f *Fake) usersInfo(r *http.Request) map[string]any {
	u, ok := f.users[r.PostForm.Get("user")]
	if !ok {
		return fail("user_not_found")
	}
	return map[string]any{"ok": true, "user": u}
}

func (f *Fake) conversationsInfo(r *http.Request) map[string]any {
	id := r.PostForm.Get("channel")
	name, ok := f.channels[id]
	if !ok {
		return fail("channel_not_found")
	}
	return map[string]any{"ok": true, "channel": map[string]any{"id": id, "name": name, "is_channel": true}}
}

// userGroupsList serves usergroups.list: disabled groups only with include_disabled, members
// only with include_users.
func (f *Fake) userGroupsList(r *http.Request) map[string]any {
	f.GroupLists++
	groups := []UserGroup{}
	for _, g := range f.UserGroups {
		if g.DateDelete != 0 && r.PostForm.Get("include_disabled") != "true" {
			continue
		}
		if r.PostForm.Get("include_users") != "true" {
			g.Users = nil
		}
		groups = append(groups, g)
	}
	return map[string]any{"ok": true, "usergroups": groups}
}
