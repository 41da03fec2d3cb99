// Package discordfake is a small stand-in for Discord's REST API (v9) and gateway, on loopback,
// for the Eos Discord adapter's tests and the conformance suite. It implements only the calls the
// adapter makes, with the payload shapes of Discord's documentation: REST objects as JSON,
// gateway frames as {op, d, s, t}. Tests inject what people do (AddMessage, MessageCreate,
// Reaction), set the guild's roles and members (Roles, Members) and the bot's permission
// (ManageMessages), read what the bot did (BotMessages, Deleted) and drop the gateway (Drop),
// holding the next connection back as long as they need (Hold, Release).
//
// It is test support: it imports nothing of Eos and must not be imported by production code.
package discordfake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// MaxContent is Discord's limit on a message's content, in UTF-16 code units.
const MaxContent = 2000

// The token the fake accepts and the ids of its fixtures.
const (
	Token       = "fake-bot-token"
	BotID       = "900"
	GuildID     = "100"
	TextChannel = "200" // a guild text channel
	DMChannel   = "300" // a direct message channel
)

// Role is a guild role.
type Role struct {
	ID, Name string
}

// User is a Discord user.
type User struct {
	ID, Name string
	Bot      bool
}

// Channel is a guild text channel, a DM or a thread.
type Channel struct {
	ID, Guild, Parent string
	Type              int // 0 guild text, 1 DM, 11 public thread
}

// Message is a message, as the fake stores it.
type Message struct {
	ID, Channel, Author, Content string
	Reference                    string              // message_reference.message_id
	Files                        map[string]string   // name → content
	Reactions                    map[string][]string // emoji → user ids, in order
	Edits                        int
}

// Fake is Discord on loopback. Tests may read and change the exported fields while holding Mu.
type Fake struct {
	t       testing.TB
	intents discordgo.Intent
	srv     *httptest.Server

	Mu       sync.Mutex
	Users    map[string]User
	Channels map[string]*Channel
	Messages map[string]*Message
	posted   []*Message // created by the bot, in order
	Threads  []string   // POST .../threads, as "channel/message name"
	nextID   int

	// Guilds are the guilds the bot is in (GET /users/@me/guilds); Roles and Members describe
	// GuildID: its roles, and each member's role ids.
	Guilds  []string
	Roles   []Role
	Members map[string][]string
	// RoleLists counts the GET /guilds/{id}/roles calls.
	RoleLists int
	// ManageMessages grants the bot Manage Messages in the guild's channels, so it may delete
	// others' messages there (never in a DM). False, as for a bot nobody granted it.
	ManageMessages bool
	deleted        []string // ids of deleted messages, in order

	// gateway
	conn      *websocket.Conn
	wmu       sync.Mutex // serialises writes on conn
	seq       int
	sessionID string
	sent      []frame // every dispatch, for replay on RESUME
	// handshakes receives "identify" or "resume" each time a client is greeted.
	handshakes chan string
	held       chan struct{} // while not nil, new connections wait until it is closed (Hold)
	Identifies int

	// rejectFiles makes every upload fail as too large.
	RejectFiles bool
}

// frame is a gateway payload.
type frame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int            `json:"s"`
	T  *string         `json:"t"`
}

// New starts a fake on loopback that accepts Token and requires exactly intents at Identify, with
// the bot (BotID), alice (501), bob (502), carol (504), a bot ci-bot (503), a guild text channel
// (TextChannel) and a direct-message channel (DMChannel). Everyone is a member of the guild
// (GuildID), whose roles are @everyone, ops (700: bob) and dba (701: carol). It is closed when
// the test ends.
func New(t testing.TB, intents discordgo.Intent) *Fake {
	f := &Fake{
		t:       t,
		intents: intents,
		Users: map[string]User{
			BotID: {ID: BotID, Name: "eos", Bot: true},
			"501": {ID: "501", Name: "alice"},
			"502": {ID: "502", Name: "bob"},
			"504": {ID: "504", Name: "carol"},
			"503": {ID: "503", Name: "ci-bot", Bot: true},
		},
		Channels: map[string]*Channel{
			TextChannel: {ID: TextChannel, Guild: GuildID, Type: 0},
			DMChannel:   {ID: DMChannel, Type: 1},
		},
		Messages:   map[string]*Message{},
		nextID:     1000,
		Guilds:     []string{GuildID},
		Roles:      []Role{{ID: GuildID, Name: "@everyone"}, {ID: "700", Name: "ops"}, {ID: "701", Name: "dba"}},
		Members:    map[string][]string{BotID: {}, "501": {}, "502": {"700"}, "503": {}, "504": {"701"}},
		handshakes: make(chan string, 16),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", f.auth(f.gateway))
	mux.HandleFunc("GET /api/v9/users/{id}", f.auth(f.getUser))
	mux.HandleFunc("GET /api/v9/channels/{ch}", f.auth(f.getChannel))
	mux.HandleFunc("POST /api/v9/channels/{ch}/messages", f.auth(f.createMessage))
	mux.HandleFunc("GET /api/v9/channels/{ch}/messages/{id}", f.auth(f.getMessage))
	mux.HandleFunc("PATCH /api/v9/channels/{ch}/messages/{id}", f.auth(f.editMessage))
	mux.HandleFunc("DELETE /api/v9/channels/{ch}/messages/{id}", f.auth(f.deleteMessage))
	mux.HandleFunc("GET /api/v9/users/@me/guilds", f.auth(f.userGuilds))
	mux.HandleFunc("GET /api/v9/guilds/{g}/roles", f.auth(f.guildRoles))
	mux.HandleFunc("GET /api/v9/guilds/{g}/members/{u}", f.auth(f.guildMember))
	mux.HandleFunc("POST /api/v9/channels/{ch}/messages/{id}/threads", f.auth(f.startThread))
	mux.HandleFunc("PUT /api/v9/channels/{ch}/messages/{id}/reactions/{emoji}/@me", f.auth(f.addReaction))
	mux.HandleFunc("GET /api/v9/channels/{ch}/messages/{id}/reactions/{emoji}", f.auth(f.listReactions))
	mux.HandleFunc("GET /ws/", f.websocket) // discordgo adds a slash to the gateway's URL
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.close)
	return f
}

// APIBase is the REST base URL to configure the adapter with.
func (f *Fake) APIBase() string { return f.srv.URL + "/api/v9/" }

func (f *Fake) close() {
	f.Release()
	f.Mu.Lock()
	if f.conn != nil {
		f.conn.Close()
	}
	f.Mu.Unlock()
	f.srv.Close()
}

func (f *Fake) id() string {
	f.nextID++
	return strconv.Itoa(f.nextID)
}

// ---- REST ----

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
	return map[string]any{"id": u.ID, "username": u.Name, "discriminator": "0", "global_name": nil, "avatar": nil, "bot": u.Bot}
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

func channelJSON(c *Channel) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type}
	if c.Guild != "" {
		m["guild_id"] = c.Guild
	}
	if c.Parent != "" {
		m["parent_id"] = c.Parent
	}
	return m
}

func (f *Fake) getChannel(w http.ResponseWriter, r *http.Request) {
	c, ok := f.Channels[r.PathValue("ch")]
	if !ok {
		apiError(w, 404, 10003, "Unknown Channel")
		return
	}
	writeJSON(w, 200, channelJSON(c))
}

// MessageJSON is m as Discord sends a message object; call it holding Mu.
func (f *Fake) MessageJSON(m *Message) map[string]any {
	out := map[string]any{
		"id": m.ID, "channel_id": m.Channel, "content": m.Content, "type": 0,
		"author": userJSON(f.Users[m.Author]), "timestamp": "2026-11-23T08:00:00.000000+00:00",
		"edited_timestamp": nil, "tts": false, "mention_everyone": false, "mentions": []any{},
		"attachments": []any{}, "embeds": []any{}, "pinned": false,
	}
	if g := f.Channels[m.Channel].Guild; g != "" {
		out["guild_id"] = g
	}
	var reactions []any
	for emoji, users := range m.Reactions {
		reactions = append(reactions, map[string]any{
			"count": len(users), "me": slices.Contains(users, BotID), "emoji": map[string]any{"id": nil, "name": emoji},
		})
	}
	if reactions != nil {
		out["reactions"] = reactions
	}
	return out
}

func (f *Fake) createMessage(w http.ResponseWriter, r *http.Request) {
	ch, ok := f.Channels[r.PathValue("ch")]
	if !ok {
		apiError(w, 404, 10003, "Unknown Channel")
		return
	}
	var body struct {
		Content   string `json:"content"`
		Reference *struct {
			MessageID string `json:"message_id"`
		} `json:"message_reference"`
	}
	files := map[string]string{}
	payload := io.Reader(r.Body)
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			apiError(w, 400, 50035, "Invalid Form Body")
			return
		}
		payload = strings.NewReader(r.FormValue("payload_json"))
		for field, fhs := range r.MultipartForm.File {
			if !strings.HasPrefix(field, "files[") {
				continue
			}
			for _, fh := range fhs {
				rd, _ := fh.Open()
				b, _ := io.ReadAll(rd)
				rd.Close()
				files[fh.Filename] = string(b)
			}
		}
	}
	if len(files) > 0 && f.RejectFiles {
		apiError(w, http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
		return
	}
	if err := json.NewDecoder(payload).Decode(&body); err != nil {
		apiError(w, 400, 50109, "The request body contains invalid JSON.")
		return
	}
	if n := len(utf16.Encode([]rune(body.Content))); n == 0 && len(files) == 0 || n > MaxContent {
		apiError(w, 400, 50035, "Invalid Form Body: content must be 1 to 2000 characters")
		return
	}
	m := &Message{ID: f.id(), Channel: ch.ID, Author: BotID, Content: body.Content, Files: files}
	if body.Reference != nil {
		m.Reference = body.Reference.MessageID
	}
	f.Messages[m.ID] = m
	f.posted = append(f.posted, m)
	writeJSON(w, 200, f.MessageJSON(m))
}

func (f *Fake) message(w http.ResponseWriter, r *http.Request) (*Message, bool) {
	m, ok := f.Messages[r.PathValue("id")]
	if !ok || m.Channel != r.PathValue("ch") {
		apiError(w, 404, 10008, "Unknown Message")
		return nil, false
	}
	return m, true
}

func (f *Fake) getMessage(w http.ResponseWriter, r *http.Request) {
	if m, ok := f.message(w, r); ok {
		writeJSON(w, 200, f.MessageJSON(m))
	}
}

func (f *Fake) editMessage(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	if m.Author != BotID {
		apiError(w, 403, 50005, "Cannot edit a message authored by another user")
		return
	}
	var body struct {
		Content *string `json:"content"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, 400, 50109, "The request body contains invalid JSON.")
		return
	}
	if body.Content != nil {
		if n := len(utf16.Encode([]rune(*body.Content))); n > MaxContent {
			apiError(w, 400, 50035, "Invalid Form Body: content must be 2000 or fewer in length")
			return
		}
		m.Content = *body.Content
	}
	m.Edits++
	writeJSON(w, 200, f.MessageJSON(m))
}

func (f *Fake) startThread(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	parent := f.Channels[m.Channel]
	switch {
	case parent.Type == 1:
		apiError(w, 400, 50003, "Cannot execute action on a DM channel")
		return
	case f.Channels[m.ID] != nil:
		apiError(w, 400, 160004, "A thread has already been created for this message")
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	json.NewDecoder(r.Body).Decode(&body)
	if n := len([]rune(body.Name)); n < 1 || n > 100 {
		apiError(w, 400, 50035, "Invalid Form Body: name must be 1 to 100 characters")
		return
	}
	// A thread started from a message has the message's id.
	th := &Channel{ID: m.ID, Guild: parent.Guild, Parent: parent.ID, Type: 11}
	f.Channels[th.ID] = th
	f.Threads = append(f.Threads, parent.ID+"/"+m.ID+" "+body.Name)
	writeJSON(w, 201, channelJSON(th))
}

func (f *Fake) addReaction(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	emoji := r.PathValue("emoji")
	if m.Reactions == nil {
		m.Reactions = map[string][]string{}
	}
	if !slices.Contains(m.Reactions[emoji], BotID) {
		m.Reactions[emoji] = append(m.Reactions[emoji], BotID)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (f *Fake) listReactions(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	users := []any{}
	for _, id := range m.Reactions[r.PathValue("emoji")] {
		users = append(users, userJSON(f.Users[id]))
	}
	writeJSON(w, 200, users)
}

// AddMessage stores a message someone wrote (before it is dispatched on the gateway).
func (f *Fake) AddMessage(channel, author, content string) *Message {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	m := &Message{ID: f.id(), Channel: channel, Author: author, Content: content}
	f.Messages[m.ID] = m
	return m
}

// BotMessages returns copies of what the bot posted, in order.
func (f *Fake) BotMessages() []Message {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	out := make([]Message, len(f.posted))
	for i, m := range f.posted {
		out[i] = *m
	}
	return out
}
