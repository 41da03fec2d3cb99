package slack

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

const (
	botToken = "xoxb-test-bot-token"
	appToken = "xapp-test-app-token"
	botID    = "UBOT"
)

// fakeSlack is a small, honest stand-in for the parts of Slack the adapter calls: the Web API
// methods (auth.test, users.info, conversations.info, chat.postMessage, chat.update,
// reactions.add, reactions.get, apps.connections.open), with the payload shapes of Slack's
// documentation, and a Socket Mode websocket that says hello, sends envelopes and records acks.
type fakeSlack struct {
	t   *testing.T
	srv *httptest.Server

	mu        sync.Mutex
	users     map[string]fakeUser
	channels  map[string]string // id → name
	posts     []call            // chat.postMessage
	updates   []call            // chat.update
	reacted   []call            // reactions.add
	reactions map[string][]fakeReaction
	openErrs  []string // errors apps.connections.open answers with, first to last
	opens     int
	ts        int
	conn      *websocket.Conn
	envelopes int

	connected chan int    // the number of each connection greeted with hello
	acks      chan string // envelope ids acknowledged
}

type fakeUser struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	IsBot bool   `json:"is_bot"`
}

type fakeReaction struct {
	Name  string   `json:"name"`
	Count int      `json:"count"`
	Users []string `json:"users"`
}

// call is one recorded Web API call.
type call struct {
	Channel, TS, ThreadTS, Text, Name string
	Blocks                            []json.RawMessage
}

func newFakeSlack(t *testing.T) *fakeSlack {
	f := &fakeSlack{
		t: t,
		users: map[string]fakeUser{
			botID:  {ID: botID, Name: "eos", IsBot: true},
			"UAL":  {ID: "UAL", Name: "alice"},
			"UBO":  {ID: "UBO", Name: "bob"},
			"UCI":  {ID: "UCI", Name: "ci-bot", IsBot: true},
			"USEC": {ID: "USEC", Name: "secops"},
		},
		channels:  map[string]string{"CINFRA001": "infra", "CRANDOM01": "random"},
		reactions: map[string][]fakeReaction{},
		connected: make(chan int, 16),
		acks:      make(chan string, 64),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/auth.test", f.web(botToken, f.authTest))
	mux.HandleFunc("/api/users.info", f.web(botToken, f.usersInfo))
	mux.HandleFunc("/api/conversations.info", f.web(botToken, f.conversationsInfo))
	mux.HandleFunc("/api/chat.postMessage", f.web(botToken, f.postMessage))
	mux.HandleFunc("/api/chat.update", f.web(botToken, f.update))
	mux.HandleFunc("/api/reactions.add", f.web(botToken, f.reactionsAdd))
	mux.HandleFunc("/api/reactions.get", f.web(botToken, f.reactionsGet))
	mux.HandleFunc("/api/apps.connections.open", f.web(appToken, f.connectionsOpen))
	mux.HandleFunc("/link", f.socket)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.drop()
		f.srv.Close()
	})
	return f
}

func (f *fakeSlack) apiURL() string { return f.srv.URL + "/api/" }

// web checks the token (Authorization header or token form field, as the client sends it) and
// answers with what h returns, as JSON.
func (f *fakeSlack) web(token string, h func(r *http.Request) map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res := map[string]any{"ok": false, "error": "invalid_auth"}
		if r.Header.Get("Authorization") == "Bearer "+token || r.PostForm.Get("token") == token {
			f.mu.Lock()
			res = h(r)
			f.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(res)
	}
}

func fail(code string) map[string]any { return map[string]any{"ok": false, "error": code} }

func (f *fakeSlack) authTest(*http.Request) map[string]any {
	return map[string]any{"ok": true, "url": "https://eos-test.slack.com/", "team": "Eos", "user": "eos",
		"team_id": "T0001", "user_id": botID, "bot_id": "BBOT"}
}

func (f *fakeSlack) usersInfo(r *http.Request) map[string]any {
	u, ok := f.users[r.PostForm.Get("user")]
	if !ok {
		return fail("user_not_found")
	}
	return map[string]any{"ok": true, "user": u}
}

func (f *fakeSlack) conversationsInfo(r *http.Request) map[string]any {
	id := r.PostForm.Get("channel")
	name, ok := f.channels[id]
	if !ok {
		return fail("channel_not_found")
	}
	return map[string]any{"ok": true, "channel": map[string]any{"id": id, "name": name, "is_channel": true}}
}

func (f *fakeSlack) recordMessage(r *http.Request, ts string) (call, error) {
	c := call{Channel: r.PostForm.Get("channel"), TS: ts, ThreadTS: r.PostForm.Get("thread_ts"), Text: r.PostForm.Get("text")}
	if b := r.PostForm.Get("blocks"); b != "" {
		if err := json.Unmarshal([]byte(b), &c.Blocks); err != nil {
			return c, err
		}
	}
	return c, nil
}

func (f *fakeSlack) postMessage(r *http.Request) map[string]any {
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
		"message": map[string]any{"type": "message", "user": botID, "text": c.Text, "ts": ts}}
}

func (f *fakeSlack) update(r *http.Request) map[string]any {
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

func (f *fakeSlack) reactionsAdd(r *http.Request) map[string]any {
	c := call{Channel: r.PostForm.Get("channel"), TS: r.PostForm.Get("timestamp"), Name: r.PostForm.Get("name")}
	for _, old := range f.reacted {
		if old.Channel == c.Channel && old.TS == c.TS && old.Name == c.Name {
			return fail("already_reacted")
		}
	}
	f.reacted = append(f.reacted, c)
	return map[string]any{"ok": true}
}

func (f *fakeSlack) reactionsGet(r *http.Request) map[string]any {
	ch, ts := r.PostForm.Get("channel"), r.PostForm.Get("timestamp")
	return map[string]any{"ok": true, "type": "message", "channel": ch, "message": map[string]any{
		"type": "message", "ts": ts, "reactions": f.reactions[ch+"/"+ts],
	}}
}

func (f *fakeSlack) connectionsOpen(*http.Request) map[string]any {
	f.opens++
	if len(f.openErrs) > 0 {
		code := f.openErrs[0]
		f.openErrs = f.openErrs[1:]
		return fail(code)
	}
	return map[string]any{"ok": true, "url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + fmt.Sprintf("/link?ticket=%d", f.opens)}
}

// socket serves one Socket Mode connection: hello, then envelopes sent with send; acks are
// recorded until the connection closes.
func (f *fakeSlack) socket(w http.ResponseWriter, r *http.Request) {
	// The client sends Slack's own origin, which is not this server's.
	up := websocket.Upgrader{CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == "https://api.slack.com" }}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	f.mu.Lock()
	f.conn = conn
	n := f.opens
	err = conn.WriteJSON(map[string]any{"type": "hello", "num_connections": 1,
		"debug_info":      map[string]any{"host": "fake", "approximate_connection_time": 3600},
		"connection_info": map[string]any{"app_id": "A0001"}})
	f.mu.Unlock()
	if err != nil {
		return
	}
	f.connected <- n
	for {
		var ack struct {
			EnvelopeID string `json:"envelope_id"`
		}
		if err := conn.ReadJSON(&ack); err != nil {
			return
		}
		f.acks <- ack.EnvelopeID
	}
}

// send wraps event in an events_api envelope, sends it on the live connection and returns the
// envelope id.
func (f *fakeSlack) send(event map[string]any) string {
	f.t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn == nil {
		f.t.Fatal("fake: no socket mode connection")
	}
	f.envelopes++
	id := fmt.Sprintf("env-%d", f.envelopes)
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

// drop closes the live connection as a network failure would.
func (f *fakeSlack) drop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.conn != nil {
		f.conn.Close()
		f.conn = nil
	}
}

func (f *fakeSlack) recorded() (posts, updates, reacted []call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]call(nil), f.posts...), append([]call(nil), f.updates...), append([]call(nil), f.reacted...)
}

// next receives from ch, failing t after a deadline.
func next[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
