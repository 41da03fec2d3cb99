package slackfake

// The Web API's plumbing (the token check, answers as JSON) and the methods that describe the
// workspace: auth.test, users.info, users.list and usergroups.list (conversations in conversations.go).

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
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
		if f.limited(strings.TrimPrefix(r.URL.Path, "/api/")) {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_ = json.NewEncoder(w).Encode(fail("ratelimited"))
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

// limited reports whether this call of method is refused for its rate (RateLimited).
func (f *Fake) limited(method string) bool {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.RateLimited[method] <= 0 {
		return false
	}
	f.RateLimited[method]--
	f.Limited++
	return true
}

func fail(code string) map[string]any { return map[string]any{"ok": false, "error": code} }

func (f *Fake) authTest(*http.Request) map[string]any {
	return map[string]any{"ok": true, "url": "https://eos-test.slack.com/", "team": "Eos", "user": "eos",
		"team_id": "T0001", "user_id": BotID, "bot_id": "BBOT"}
}

func (f *Fake) usersInfo(r *http.Request) map[string]any {
	u, ok := f.Users[r.PostForm.Get("user")]
	if !ok {
		return fail("user_not_found")
	}
	return map[string]any{"ok": true, "user": u}
}

// usersList serves users.list a page at a time, in id order: limit members (default 200), and
// the next page's cursor (the index it starts at) in response_metadata, empty on the last.
// Deactivated members are listed too, with deleted set, as Slack does.
func (f *Fake) usersList(r *http.Request) map[string]any {
	f.UserLists++
	ids := make([]string, 0, len(f.Users))
	for id := range f.Users {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	limit, err := strconv.Atoi(r.PostForm.Get("limit"))
	if err != nil || limit <= 0 {
		limit = 200
	}
	start := 0
	if c := r.PostForm.Get("cursor"); c != "" {
		if start, err = strconv.Atoi(c); err != nil || start < 0 || start > len(ids) {
			return fail("invalid_cursor")
		}
	}
	end := min(start+limit, len(ids))
	members := []User{}
	for _, id := range ids[start:end] {
		members = append(members, f.Users[id])
	}
	next := ""
	if end < len(ids) {
		next = strconv.Itoa(end)
	}
	return map[string]any{"ok": true, "members": members, "response_metadata": map[string]any{"next_cursor": next}}
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
