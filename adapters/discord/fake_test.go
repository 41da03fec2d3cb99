package discord

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

// fakeDiscord is a small stand-in for Discord's REST API (v9) and gateway, on loopback. It
// implements only the calls the adapter makes, with the payload shapes of Discord's
// documentation: REST objects as JSON, gateway frames as {op, d, s, t}.
const (
	fakeToken   = "fake-bot-token"
	botID       = "900"
	guildID     = "100"
	textChannel = "200" // a guild text channel
	dmChannel   = "300" // a direct message channel
)

type fakeUser struct {
	ID, Name string
	Bot      bool
}

type fakeChannel struct {
	ID, Guild, Parent string
	Type              int // 0 guild text, 1 DM, 11 public thread
}

type fakeMessage struct {
	ID, Channel, Author, Content string
	Reference                    string              // message_reference.message_id
	Files                        map[string]string   // name → content
	Reactions                    map[string][]string // emoji → user ids, in order
	Edits                        int
}

type fakeDiscord struct {
	t   *testing.T
	srv *httptest.Server

	mu       sync.Mutex
	users    map[string]fakeUser
	channels map[string]*fakeChannel
	messages map[string]*fakeMessage
	posted   []*fakeMessage // created by the bot, in order
	threads  []string       // POST .../threads, as "channel/message name"
	nextID   int

	// gateway
	conn      *websocket.Conn
	wmu       sync.Mutex // serialises writes on conn
	seq       int
	sessionID string
	sent      []frame // every dispatch, for replay on RESUME
	// handshakes receives "identify" or "resume" each time a client is greeted.
	handshakes chan string
	identifies int

	// rejectFiles makes every upload fail as too large.
	rejectFiles bool
}

// frame is a gateway payload.
type frame struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int            `json:"s"`
	T  *string         `json:"t"`
}

func newFakeDiscord(t *testing.T) *fakeDiscord {
	f := &fakeDiscord{
		t: t,
		users: map[string]fakeUser{
			botID: {ID: botID, Name: "eos", Bot: true},
			"501": {ID: "501", Name: "alice"},
			"502": {ID: "502", Name: "bob"},
			"503": {ID: "503", Name: "ci-bot", Bot: true},
		},
		channels: map[string]*fakeChannel{
			textChannel: {ID: textChannel, Guild: guildID, Type: 0},
			dmChannel:   {ID: dmChannel, Type: 1},
		},
		messages:   map[string]*fakeMessage{},
		nextID:     1000,
		handshakes: make(chan string, 16),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v9/gateway", f.auth(f.gateway))
	mux.HandleFunc("GET /api/v9/users/{id}", f.auth(f.getUser))
	mux.HandleFunc("GET /api/v9/channels/{ch}", f.auth(f.getChannel))
	mux.HandleFunc("POST /api/v9/channels/{ch}/messages", f.auth(f.createMessage))
	mux.HandleFunc("GET /api/v9/channels/{ch}/messages/{id}", f.auth(f.getMessage))
	mux.HandleFunc("PATCH /api/v9/channels/{ch}/messages/{id}", f.auth(f.editMessage))
	mux.HandleFunc("POST /api/v9/channels/{ch}/messages/{id}/threads", f.auth(f.startThread))
	mux.HandleFunc("PUT /api/v9/channels/{ch}/messages/{id}/reactions/{emoji}/@me", f.auth(f.addReaction))
	mux.HandleFunc("GET /api/v9/channels/{ch}/messages/{id}/reactions/{emoji}", f.auth(f.listReactions))
	mux.HandleFunc("GET /ws/", f.websocket) // discordgo adds a slash to the gateway's URL
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.close)
	return f
}

func (f *fakeDiscord) apiBase() string { return f.srv.URL + "/api/v9/" }

func (f *fakeDiscord) close() {
	f.mu.Lock()
	if f.conn != nil {
		f.conn.Close()
	}
	f.mu.Unlock()
	f.srv.Close()
}

func (f *fakeDiscord) id() string {
	f.nextID++
	return strconv.Itoa(f.nextID)
}

// ---- REST ----

func (f *fakeDiscord) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bot "+fakeToken {
			apiError(w, http.StatusUnauthorized, 0, "401: Unauthorized")
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
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

func (f *fakeDiscord) gateway(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, 200, map[string]any{"url": "ws" + strings.TrimPrefix(f.srv.URL, "http") + "/ws"})
}

func userJSON(u fakeUser) map[string]any {
	return map[string]any{"id": u.ID, "username": u.Name, "discriminator": "0", "global_name": nil, "avatar": nil, "bot": u.Bot}
}

func (f *fakeDiscord) getUser(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if id == "@me" {
		id = botID
	}
	u, ok := f.users[id]
	if !ok {
		apiError(w, 404, 10013, "Unknown User")
		return
	}
	writeJSON(w, 200, userJSON(u))
}

func channelJSON(c *fakeChannel) map[string]any {
	m := map[string]any{"id": c.ID, "type": c.Type}
	if c.Guild != "" {
		m["guild_id"] = c.Guild
	}
	if c.Parent != "" {
		m["parent_id"] = c.Parent
	}
	return m
}

func (f *fakeDiscord) getChannel(w http.ResponseWriter, r *http.Request) {
	c, ok := f.channels[r.PathValue("ch")]
	if !ok {
		apiError(w, 404, 10003, "Unknown Channel")
		return
	}
	writeJSON(w, 200, channelJSON(c))
}

func (f *fakeDiscord) messageJSON(m *fakeMessage) map[string]any {
	out := map[string]any{
		"id": m.ID, "channel_id": m.Channel, "content": m.Content, "type": 0,
		"author": userJSON(f.users[m.Author]), "timestamp": "2026-11-23T08:00:00.000000+00:00",
		"edited_timestamp": nil, "tts": false, "mention_everyone": false, "mentions": []any{},
		"attachments": []any{}, "embeds": []any{}, "pinned": false,
	}
	if g := f.channels[m.Channel].Guild; g != "" {
		out["guild_id"] = g
	}
	var reactions []any
	for emoji, users := range m.Reactions {
		reactions = append(reactions, map[string]any{
			"count": len(users), "me": slices.Contains(users, botID), "emoji": map[string]any{"id": nil, "name": emoji},
		})
	}
	if reactions != nil {
		out["reactions"] = reactions
	}
	return out
}

func (f *fakeDiscord) createMessage(w http.ResponseWriter, r *http.Request) {
	ch, ok := f.channels[r.PathValue("ch")]
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
	if len(files) > 0 && f.rejectFiles {
		apiError(w, http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
		return
	}
	if err := json.NewDecoder(payload).Decode(&body); err != nil {
		apiError(w, 400, 50109, "The request body contains invalid JSON.")
		return
	}
	if n := len(utf16.Encode([]rune(body.Content))); n == 0 && len(files) == 0 || n > 2000 {
		apiError(w, 400, 50035, "Invalid Form Body: content must be 1 to 2000 characters")
		return
	}
	m := &fakeMessage{ID: f.id(), Channel: ch.ID, Author: botID, Content: body.Content, Files: files}
	if body.Reference != nil {
		m.Reference = body.Reference.MessageID
	}
	f.messages[m.ID] = m
	f.posted = append(f.posted, m)
	writeJSON(w, 200, f.messageJSON(m))
}

func (f *fakeDiscord) message(w http.ResponseWriter, r *http.Request) (*fakeMessage, bool) {
	m, ok := f.messages[r.PathValue("id")]
	if !ok || m.Channel != r.PathValue("ch") {
		apiError(w, 404, 10008, "Unknown Message")
		return nil, false
	}
	return m, true
}

func (f *fakeDiscord) getMessage(w http.ResponseWriter, r *http.Request) {
	if m, ok := f.message(w, r); ok {
		writeJSON(w, 200, f.messageJSON(m))
	}
}

func (f *fakeDiscord) editMessage(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	if m.Author != botID {
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
		m.Content = *body.Content
	}
	m.Edits++
	writeJSON(w, 200, f.messageJSON(m))
}

func (f *fakeDiscord) startThread(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	parent := f.channels[m.Channel]
	switch {
	case parent.Type == 1:
		apiError(w, 400, 50003, "Cannot execute action on a DM channel")
		return
	case f.channels[m.ID] != nil:
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
	th := &fakeChannel{ID: m.ID, Guild: parent.Guild, Parent: parent.ID, Type: 11}
	f.channels[th.ID] = th
	f.threads = append(f.threads, parent.ID+"/"+m.ID+" "+body.Name)
	writeJSON(w, 201, channelJSON(th))
}

func (f *fakeDiscord) addReaction(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	emoji := r.PathValue("emoji")
	if m.Reactions == nil {
		m.Reactions = map[string][]string{}
	}
	if !slices.Contains(m.Reactions[emoji], botID) {
		m.Reactions[emoji] = append(m.Reactions[emoji], botID)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (f *fakeDiscord) listReactions(w http.ResponseWriter, r *http.Request) {
	m, ok := f.message(w, r)
	if !ok {
		return
	}
	users := []any{}
	for _, id := range m.Reactions[r.PathValue("emoji")] {
		users = append(users, userJSON(f.users[id]))
	}
	writeJSON(w, 200, users)
}

// addMessage stores a message someone wrote (before it is dispatched on the gateway).
func (f *fakeDiscord) addMessage(channel, author, content string) *fakeMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := &fakeMessage{ID: f.id(), Channel: channel, Author: author, Content: content}
	f.messages[m.ID] = m
	return m
}

// botMessages returns copies of what the bot posted, in order.
func (f *fakeDiscord) botMessages() []fakeMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]fakeMessage, len(f.posted))
	for i, m := range f.posted {
		out[i] = *m
	}
	return out
}

// decodeMessage turns a message object as Discord sends it into discordgo's type.
func decodeMessage(t *testing.T, m map[string]any) *discordgo.Message {
	t.Helper()
	var out discordgo.Message
	if err := json.Unmarshal(raw(m), &out); err != nil {
		t.Fatal(err)
	}
	return &out
}
