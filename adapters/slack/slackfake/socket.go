package slackfake

// Socket Mode: apps.connections.open, the websocket that says hello, carries events_api
// envelopes and records acks, and the switches a test breaks it with (Drop, Hold, Release).

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/gorilla/websocket"
)

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
	f.recordReaction(event)
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

// recordReaction keeps a reaction_added or reaction_removed event's emoji on its message, as
// Slack does before it sends the event, so reactions.get lists what the events said.
func (f *Fake) recordReaction(event map[string]any) {
	typ := str(event["type"])
	item, _ := event["item"].(map[string]any)
	if typ != "reaction_added" && typ != "reaction_removed" || item == nil || str(item["type"]) != "message" {
		return
	}
	key, name, user := str(item["channel"])+"/"+str(item["ts"]), str(event["reaction"]), str(event["user"])
	if f.Reactions == nil {
		f.Reactions = map[string][]Reaction{}
	}
	list := f.Reactions[key]
	i := slices.IndexFunc(list, func(r Reaction) bool { return r.Name == name })
	switch {
	case typ == "reaction_added" && i < 0:
		f.Reactions[key] = append(list, Reaction{Name: name, Count: 1, Users: []string{user}})
	case typ == "reaction_added" && !slices.Contains(list[i].Users, user):
		list[i].Users = append(slices.Clone(list[i].Users), user)
		list[i].Count = len(list[i].Users)
	case typ == "reaction_removed" && i >= 0:
		list[i].Users = slices.DeleteFunc(slices.Clone(list[i].Users), func(u string) bool { return u == user })
		list[i].Count = len(list[i].Users)
		if list[i].Count == 0 {
			f.Reactions[key] = slices.Delete(slices.Clone(list), i, i+1)
		}
	}
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
