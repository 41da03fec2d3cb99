// Package slackfake is a small, honest stand-in for the parts of Slack the Eos Slack adapter
// calls: the Web API methods (auth.test, users.info, conversations.info, chat.postMessage,
// chat.update, chat.delete, reactions.add, reactions.get, usergroups.list,
// apps.connections.open), with the payload shapes of
// Slack's documentation, and a Socket Mode websocket that says hello, sends events_api envelopes
// and records acks. Tests inject what people do (Send) and read what the bot did (Recorded).
//
// It is test support: it imports nothing of Eos and must not be imported by production code.
package slackfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gorilla/websocket"
)

// The tokens the fake accepts and the bot's user id. AdminUserToken is a workspace admin's
// user token: chat.delete accepts it for anyone's message, the bot token only for the bot's.
const (
	BotToken       = "xoxb-test-bot-token"
	AppToken       = "xapp-test-app-token"
	AdminUserToken = "xoxp-test-admin-token"
	BotID          = "UBOT"
)

// Fake is a Slack workspace on loopback. Tests may read and change the exported fields while
// holding Mu.
type Fake struct {
	t   testing.TB
	srv *httptest.Server

	Mu        sync.Mutex
	users     map[string]User
	channels  map[string]string // id → name
	posts     []Call            // chat.postMessage
	updates   []Call            // chat.update
	reacted   []Call            // reactions.add
	deleted   []Deletion        // chat.delete
	said      map[string]string // channel/ts → user, of the messages people sent (Send)
	Reactions map[string][]Reaction
	// UserGroups are the workspace's user groups (usergroups.list); GroupLists counts the
	// calls.
	UserGroups []UserGroup
	GroupLists int
	OpenErrs   []string // errors apps.connections.open answers with, first to last
	Opens      int
	ts         int
	conn       *websocket.Conn
	envelopes  int
	held       chan struct{} // while not nil, new sockets wait until it is closed (Hold)

	Connected chan int    // the number of each connection greeted with hello
	Acks      chan string // envelope ids acknowledged
}

// User is a users.info user object (the fields the adapter reads).
type User struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	IsBot bool   `json:"is_bot"`
}

// Reaction is one emoji of a reactions.get message object.
type Reaction struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Users []string `json:"users"`
}

// UserGroup is a usergroups.list user group object (the fields the adapter reads).
type UserGroup struct {
	ID         string   `json:"id"`
	Handle     string   `json:"handle"`
	Name       string   `json:"name"`
	DateDelete int64    `json:"date_delete"` // non-zero: disabled
	Users      []string `json:"users,omitempty"`
}

// Deletion is one message deleted with chat.delete, and the kind of token that deleted it
// ("bot" or "admin").
type Deletion struct {
	Channel, TS, By string
}

// Call is one recorded Web API Call.
type Call struct {
	Channel, TS, ThreadTS, Text, Name string
	Blocks                            []json.RawMessage
}

// New starts a fake on loopback with the bot (BotID), alice (UAL), bob (UBO), carol (UCA), secops
// (USEC) and a bot ci-bot (UCI), the channels #infra (CINFRA001) and #random (CRANDOM01), and
// the user groups @ops ("Operations": bob), @dba ("Databases": carol) and a disabled @retired
// ("Retired": bob). It is closed when the test ends.
func New(t testing.TB) *Fake {
	f := &Fake{
		t: t,
		users: map[string]User{
			BotID:  {ID: BotID, Name: "eos", IsBot: true},
			"UAL":  {ID: "UAL", Name: "alice"},
			"UBO":  {ID: "UBO", Name: "bob"},
			"UCA":  {ID: "UCA", Name: "carol"},
			"UCI":  {ID: "UCI", Name: "ci-bot", IsBot: true},
			"USEC": {ID: "USEC", Name: "secops"},
		},
		channels:  map[string]string{"CINFRA001": "infra", "CRANDOM01": "random"},
		Reactions: map[string][]Reaction{},
		said:      map[string]string{},
		UserGroups: []UserGroup{
			{ID: "S0OPS", Handle: "ops", Name: "Operations", Users: []string{"UBO"}},
			{ID: "S0DBA", Handle: "dba", Name: "Databases", Users: []string{"UCA"}},
			{ID: "S0OLD", Handle: "retired", Name: "Retired", DateDelete: 1700000000, Users: []string{"UBO"}},
		},
		Connected: make(chan int, 16),
		Acks:      make(chan string, 64),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/auth.test", f.web(BotToken, f.authTest))
	mux.HandleFunc("/api/users.info", f.web(BotToken, f.usersInfo))
	mux.HandleFunc("/api/conversations.info", f.web(BotToken, f.conversationsInfo))
	mux.HandleFunc("/api/chat.postMessage", f.web(BotToken, f.postMessage))
	mux.HandleFunc("/api/chat.update", f.web(BotToken, f.update))
	mux.HandleFunc("/api/chat.delete", f.webAs([]string{BotToken, AdminUserToken}, f.delete))
	mux.HandleFunc("/api/usergroups.list", f.web(BotToken, f.userGroupsList))
	mux.HandleFunc("/api/reactions.add", f.web(BotToken, f.reactionsAdd))
	mux.HandleFunc("/api/reactions.get", f.web(BotToken, f.reactionsGet))
	mux.HandleFunc("/api/apps.connections.open", f.web(AppToken, f.connectionsOpen))
	mux.HandleFunc("/link", f.socket)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.Release()
		f.Drop()
		f.srv.Close()
	})
	return f
}

// APIURL is the Web API base URL to configure the adapter with.
func (f *Fake) APIURL() string { return f.srv.URL + "/api/" }

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

func (f *Fake) recordMessage(r *http.Request, ts string) (Call, error) {
	c := Call{Channel: r.PostForm.Get("channel"), TS: ts, ThreadTS: r.PostForm.Get("thread_ts"), Text: r.PostForm.Get("text")}
	if b := r.PostForm.Get("blocks"); b != "" {
		if err := json.Unmarshal([]byte(b), &c.Blocks); err != nil {
			return c, err
		}
	}
	return c, c.WithinLimits()
}

// Slack's documented limits: 50 blocks per message, 3,000 characters in a section's text,
// 150 in a header's, 40,000 in a message's text.
const (
	MaxBlocks      = 50
	MaxSectionText = 3000
	MaxHeaderText  = 150
	MaxText        = 40000
)

// WithinLimits reports why c is beyond Slack's limits, or nil; the fake refuses such a message
// as Slack does (invalid_blocks).
func (c Call) WithinLimits() error {
	if len(c.Blocks) > MaxBlocks {
		return fmt.Errorf("%d blocks, more than %d", len(c.Blocks), MaxBlocks)
	}
	if n := utf8.RuneCountInString(c.Text); n > MaxText {
		return fmt.Errorf("text of %d characters, more than %d", n, MaxText)
	}
	for _, b := range c.Blocks {
		var blk struct {
			Type string `json:"type"`
			Text struct {
				Text string `json:"text"`
			} `json:"text"`
		}
		if err := json.Unmarshal(b, &blk); err != nil {
			return err
		}
		limit := map[string]int{"section": MaxSectionText, "header": MaxHeaderText}[blk.Type]
		if n := utf8.RuneCountInString(blk.Text.Text); limit > 0 && n > limit {
			return fmt.Errorf("%s text of %d characters, more than %d", blk.Type, n, limit)
		}
	}
	return nil
}

// Content is what a person reads in the message: the text of every block (header, sections,
// context elements, fields), one per line, or the message's text when it has no blocks.
func (c Call) Content() string {
	if len(c.Blocks) == 0 {
		return c.Text
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				out = append(out, t)
			}
			for k, y := range x {
				if k != "text" || !isString(y) {
					walk(y)
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	for _, b := range c.Blocks {
		var v any
		if json.Unmarshal(b, &v) == nil {
			walk(v)
		}
	}
	return strings.Join(out, "\n")
}

func isString(v any) bool { _, ok := v.(string); return ok }

func (f *Fake) postMessage(r *http.Request) map[string]any {
	ch := r.PostForm.Get("channel")
	if name := strings.TrimPrefix(ch, "#"); name != ch || f.channels[ch] == "" {
		for id, n := range f.channels {
			if n == name {
				ch = id
			}
		}
	}
	if _, ok := f.channels[ch]; !ok && !strings.HasPrefix(ch, "D") {
		return fail("channel_not_found")
	}
	f.ts++
	ts := fmt.Sprintf("1700000100.%06d", f.ts)
	c, err := f.recordMessage(r, ts)
	if err != nil {
		return fail("invalid_blocks")
	}
	c.Channel = ch
	f.posts = append(f.posts, c)
	return map[string]any{"ok": true, "channel": ch, "ts": ts,
		"message": map[string]any{"type": "message", "user": BotID, "text": c.Text, "ts": ts}}
}

func (f *Fake) update(r *http.Request) map[string]any {
	ts := r.PostForm.Get("ts")
	found := false
	for _, p := range f.posts {
		found = found || p.Channel == r.PostForm.Get("channel") && p.TS == ts
	}
	if !found {
		return fail("message_not_found")
	}
	c, err := f.recordMessage(r, ts)
	if err != nil {
		return fail("invalid_blocks")
	}
	f.updates = append(f.updates, c)
	return map[string]any{"ok": true, "channel": c.Channel, "ts": ts, "text": c.Text}
}

// delete serves chat.delete as Slack does: the bot token deletes only the bot's own messages
// (cant_delete_message otherwise), an admin's user token any message.
func (f *Fake) delete(r *http.Request, token string) map[string]any {
	ch, ts := r.PostForm.Get("channel"), r.PostForm.Get("ts")
	bots := slices.ContainsFunc(f.posts, func(p Call) bool { return p.Channel == ch && p.TS == ts })
	_, people := f.said[ch+"/"+ts]
	gone := slices.ContainsFunc(f.deleted, func(d Deletion) bool { return d.Channel == ch && d.TS == ts })
	switch {
	case gone || !bots && !people:
		return fail("message_not_found")
	case token == BotToken && !bots:
		return fail("cant_delete_message")
	}
	by := map[string]string{BotToken: "bot", AdminUserToken: "admin"}[token]
	f.deleted = append(f.deleted, Deletion{Channel: ch, TS: ts, By: by})
	return map[string]any{"ok": true, "channel": ch, "ts": ts}
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

func (f *Fake) reactionsAdd(r *http.Request) map[string]any {
	c := Call{Channel: r.PostForm.Get("channel"), TS: r.PostForm.Get("timestamp"), Name: r.PostForm.Get("name")}
	for _, old := range f.reacted {
		if old.Channel == c.Channel && old.TS == c.TS && old.Name == c.Name {
			return fail("already_reacted")
		}
	}
	f.reacted = append(f.reacted, c)
	return map[string]any{"ok": true}
}

func (f *Fake) reactionsGet(r *http.Request) map[string]any {
	ch, ts := r.PostForm.Get("channel"), r.PostForm.Get("timestamp")
	return map[string]any{"ok": true, "type": "message", "channel": ch, "message": map[string]any{
		"type": "message", "ts": ts, "reactions": f.Reactions[ch+"/"+ts],
	}}
}

func (f *Fake) connectionsOpen(*http.Request) map[string]any {
	f.Opens++
	if len(f.OpenErrs) > 0 {
		code := f.OpenErrs[0]
		f.OpenErrs = f.OpenErrs[1:]
		return fail(code)
	}
	return map[string]any{"ok": true, "url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + fmt.Sprintf("/link?ticket=%d", f.Opens)}
}

// socket serves one Socket Mode connection: hello, then envelopes sent with send; acks are
// recorded until the connection closes.
func (f *Fake) socket(w http.ResponseWriter, r *http.Request) {
	// The client sends Slack's own origin, which is not this server's.
	up := websocket.Upgrader{CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == "https://api.slack.com" }}
	f.Mu.Lock()
	held := f.held
	f.Mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-r.Context().Done():
			return
		}
	}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	f.Mu.Lock()
	f.conn = conn
	n := f.Opens
	err = conn.WriteJSON(map[string]any{"type": "hello", "num_connections": 1,
		"debug_info":      map[string]any{"host": "fake", "approximate_connection_time": 3600},
		"connection_info": map[string]any{"app_id": "A0001"}})
	f.Mu.Unlock()
	if err != nil {
		return
	}
	f.Connected <- n
	for {
		var ack struct {
			EnvelopeID string `json:"envelope_id"`
		}
		if err := conn.ReadJSON(&ack); err != nil {
			return
		}
		f.Acks <- ack.EnvelopeID
	}
}

// Send wraps event in an events_api envelope, sends it on the live connection and returns the
// envelope id.
func (f *Fake) Send(event map[string]any) string {
	f.t.Helper()
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.conn == nil {
		f.t.Fatal("fake: no socket mode connection")
	}
	f.envelopes++
	id := fmt.Sprintf("env-%d", f.envelopes)
	if ch, ts, user := str(event["channel"]), str(event["ts"]), str(event["user"]); ch != "" && ts != "" && user != "" {
		f.said[ch+"/"+ts] = user
	}
	err := f.conn.WriteJSON(map[string]any{
		"envelope_id": id, "type": "events_api", "accepts_response_payload": false, "retry_attempt": 0, "retry_reason": "",
		"payload": map[string]any{
			"token": "verification", "team_id": "T0001", "api_app_id": "A0001", "type": "event_callback",
			"event_id": "Ev" + id, "event_time": 1700000000, "event": event,
		},
	})
	if err != nil {
		f.t.Fatalf("fake: sending envelope: %v", err)
	}
	return id
}

func str(v any) string { s, _ := v.(string); return s }

// Deleted returns the messages deleted so far, in order.
func (f *Fake) Deleted() []Deletion {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]Deletion(nil), f.deleted...)
}

// Live reports whether a Socket Mode connection is open.
func (f *Fake) Live() bool {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return f.conn != nil
}

// Drop closes the live connection as a network failure would.
func (f *Fake) Drop() {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.conn != nil {
		f.conn.Close()
		f.conn = nil
	}
}

// Hold keeps new Socket Mode connections waiting, unanswered, until Release: with Drop, a test
// holds the app disconnected for as long as it needs.
func (f *Fake) Hold() {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.held == nil {
		f.held = make(chan struct{})
	}
}

// Release lets the connections Hold kept waiting, and any new one, through.
func (f *Fake) Release() {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.held != nil {
		close(f.held)
		f.held = nil
	}
}

// Recorded returns copies of the messages posted, the updates and the reactions the bot added.
func (f *Fake) Recorded() (posts, updates, reacted []Call) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return append([]Call(nil), f.posts...), append([]Call(nil), f.updates...), append([]Call(nil), f.reacted...)
}
