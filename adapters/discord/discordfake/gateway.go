package discordfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// The fake's gateway: Hello, Identify → READY, heartbeats, dispatches kept for RESUME, a
// drop that closes the socket as a network failure would, and a hold that keeps the next
// connection waiting.

func (f *Fake) websocket(w http.ResponseWriter, r *http.Request) {
	if q := r.URL.Query(); q.Get("v") != "9" || q.Get("encoding") != "json" {
		http.Error(w, "this fake speaks gateway v9 in JSON", http.StatusBadRequest)
		return
	}
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
	up := websocket.Upgrader{}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	f.write(conn, frame{Op: 10, D: raw(map[string]any{"heartbeat_interval": 45000})})
	for {
		var in frame
		if err := conn.ReadJSON(&in); err != nil {
			return
		}
		switch in.Op {
		case 1: // heartbeat
			f.write(conn, frame{Op: 11})
		case 2: // identify
			var id struct {
				Token   string `json:"token"`
				Intents int    `json:"intents"`
			}
			json.Unmarshal(in.D, &id)
			if id.Token != "Bot "+Token {
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."))
				return
			}
			if id.Intents != int(f.intents) {
				conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(4013, "Invalid intent(s)."))
				return
			}
			f.Mu.Lock()
			f.Identifies++
			f.sessionID = fmt.Sprintf("session-%d", f.Identifies)
			f.conn = conn
			f.Mu.Unlock()
			f.dispatch("READY", map[string]any{
				"v": 9, "user": userJSON(f.Users[BotID]), "guilds": []any{}, "session_id": f.sessionID,
				"resume_gateway_url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws",
				"application":        map[string]any{"id": BotID, "flags": 0},
			})
			f.handshakes <- "identify"
		case 6: // resume
			var res struct {
				Token     string `json:"token"`
				SessionID string `json:"session_id"`
				Seq       int    `json:"seq"`
			}
			json.Unmarshal(in.D, &res)
			f.Mu.Lock()
			if res.Token != "Bot "+Token || res.SessionID != f.sessionID {
				f.Mu.Unlock()
				f.write(conn, frame{Op: 9, D: raw(false)})
				continue
			}
			f.conn = conn
			var missed []frame
			for _, fr := range f.sent {
				if *fr.S > res.Seq {
					missed = append(missed, fr)
				}
			}
			f.Mu.Unlock()
			// Discord replays the missed events in order, finishing with RESUMED.
			for _, fr := range missed {
				f.write(conn, fr)
			}
			resumed := "RESUMED"
			f.write(conn, frame{Op: 0, T: &resumed, D: raw(map[string]any{})})
			f.handshakes <- "resume"
		}
	}
}

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func (f *Fake) write(conn *websocket.Conn, fr frame) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	conn.WriteJSON(fr)
}

// dispatch sends an event (op 0) to the connected client, or keeps it for a RESUME when the
// client is disconnected.
func (f *Fake) dispatch(event string, d any) {
	f.Mu.Lock()
	f.seq++
	s, t := f.seq, event
	fr := frame{Op: 0, D: raw(d), S: &s, T: &t}
	f.sent = append(f.sent, fr)
	conn := f.conn
	f.Mu.Unlock()
	if conn != nil {
		f.write(conn, fr)
	}
}

// Drop closes the client's socket as a network failure would.
func (f *Fake) Drop() {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.conn != nil {
		f.conn.NetConn().Close()
		f.conn = nil
	}
}

// Hold keeps new gateway connections waiting, unanswered, until Release: with Drop, a test
// holds the bot disconnected for as long as it needs. Dispatches meanwhile are kept for the
// RESUME.
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

// WaitHandshake waits for the next client greeting and returns its kind.
func (f *Fake) WaitHandshake() string {
	f.t.Helper()
	select {
	case h := <-f.handshakes:
		return h
	case <-time.After(10 * time.Second):
		f.t.Fatal("no client connected to the fake gateway within 10 s")
		return ""
	}
}

// MessageCreate dispatches MESSAGE_CREATE for a message someone wrote.
func (f *Fake) MessageCreate(m *Message) {
	f.Mu.Lock()
	d := f.MessageJSON(m)
	f.Mu.Unlock()
	f.dispatch("MESSAGE_CREATE", d)
}

// MessageUpdate sets m's content, as its author edited it, and dispatches MESSAGE_UPDATE.
func (f *Fake) MessageUpdate(m *Message, content string) {
	f.Mu.Lock()
	m.Content = content
	d := f.MessageJSON(m)
	d["edited_timestamp"] = "2026-11-23T08:01:00.000000+00:00"
	f.Mu.Unlock()
	f.dispatch("MESSAGE_UPDATE", d)
}

// MessageDelete removes m and dispatches MESSAGE_DELETE, which names only the message.
func (f *Fake) MessageDelete(m *Message) {
	f.Mu.Lock()
	delete(f.Messages, m.ID)
	d := map[string]any{"id": m.ID, "channel_id": m.Channel}
	if g := f.Channels[m.Channel].Guild; g != "" {
		d["guild_id"] = g
	}
	f.Mu.Unlock()
	f.dispatch("MESSAGE_DELETE", d)
}

// Reaction dispatches MESSAGE_REACTION_ADD or _REMOVE as user on message m. Guild reactions
// carry the member, as Discord sends them.
func (f *Fake) Reaction(m *Message, user, emoji string, removed bool) {
	f.Mu.Lock()
	d := map[string]any{
		"user_id": user, "channel_id": m.Channel, "message_id": m.ID,
		"emoji": map[string]any{"id": nil, "name": emoji},
	}
	event := "MESSAGE_REACTION_ADD"
	if removed {
		event = "MESSAGE_REACTION_REMOVE"
	}
	// Discord keeps the reaction on the message before it sends the event, so the message's
	// reactions list what the events said.
	if stored := f.Messages[m.ID]; stored != nil {
		if stored.Reactions == nil {
			stored.Reactions = map[string][]string{}
		}
		users := stored.Reactions[emoji]
		switch {
		case !removed && !slices.Contains(users, user):
			stored.Reactions[emoji] = append(slices.Clone(users), user)
		case removed:
			stored.Reactions[emoji] = slices.DeleteFunc(slices.Clone(users), func(u string) bool { return u == user })
		}
	}
	if g := f.Channels[m.Channel].Guild; g != "" {
		d["guild_id"] = g
		if !removed {
			d["member"] = map[string]any{"user": userJSON(f.Users[user]), "roles": []any{}, "joined_at": "2026-01-01T00:00:00.000000+00:00"}
		}
	}
	f.Mu.Unlock()
	f.dispatch(event, d)
}
