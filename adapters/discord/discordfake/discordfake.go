// Package discordfake is a small stand-in for Discord's REST API (v9) and gateway, on loopback,
// for the Eos Discord adapter's tests and the conformance suite. It implements only the calls the
// adapter makes, with the payload shapes of Discord's documentation: REST objects as JSON,
// gateway frames as {op, d, s, t}. Tests inject what people do (AddMessage, MessageCreate,
// Reaction), set the guild's roles and members (Roles, Members, Nicks) and the bot's permission
// (ManageMessages), read what the bot did (BotMessages, Deleted) and drop the gateway (Drop),
// holding the next connection back as long as they need (Hold, Release).
//
// It is test support: it imports nothing of Eos and must not be imported by production code.
package discordfake

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

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

// Role is a guild role, with the permissions it grants in every channel of the guild.
type Role struct {
	ID, Name    string
	Permissions int64
}

// User is a Discord user. Discriminator is "0" (migrated to a unique username) when empty.
type User struct {
	ID, Name      string
	Bot           bool
	Discriminator string
}

// Channel is a guild text channel, a DM or a thread.
type Channel struct {
	ID, Guild, Parent string
	Type              int // 0 guild text, 1 DM, 11 public thread, 12 private thread
	// Overwrites are the channel's permission overwrites (permission_overwrites).
	Overwrites []Overwrite
	// Recipients are the user ids of a DM's other side (recipients).
	Recipients []string
	// ThreadMembers are the user ids that joined a thread (type 11 public, 12 private).
	ThreadMembers []string
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
	// Nicks are members' guild nicknames, by user id; the member search matches them too.
	Nicks map[string]string
	// RoleLists counts the GET /guilds/{id}/roles calls.
	RoleLists int
	// Owner is the id of the guild's owner (owner_id), who has every permission.
	Owner string
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

	// RejectFiles makes every upload fail as too large.
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
	mux.HandleFunc("GET /api/v9/channels/{ch}/thread-members/{u}", f.auth(f.threadMember))
	mux.HandleFunc("POST /api/v9/channels/{ch}/messages", f.auth(f.createMessage))
	mux.HandleFunc("GET /api/v9/channels/{ch}/messages/{id}", f.auth(f.getMessage))
	mux.HandleFunc("PATCH /api/v9/channels/{ch}/messages/{id}", f.auth(f.editMessage))
	mux.HandleFunc("DELETE /api/v9/channels/{ch}/messages/{id}", f.auth(f.deleteMessage))
	mux.HandleFunc("GET /api/v9/users/@me/guilds", f.auth(f.userGuilds))
	mux.HandleFunc("GET /api/v9/guilds/{g}", f.auth(f.getGuild))
	mux.HandleFunc("GET /api/v9/guilds/{g}/roles", f.auth(f.guildRoles))
	mux.HandleFunc("POST /api/v9/users/@me/channels", f.auth(f.createDM))
	mux.HandleFunc("GET /api/v9/guilds/{g}/members/{u}", f.auth(f.guildMember))
	mux.HandleFunc("GET /api/v9/guilds/{g}/members/search", f.auth(f.searchMembers))
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
