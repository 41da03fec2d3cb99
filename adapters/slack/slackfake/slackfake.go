// Package slackfake is a small, honest stand-in for the parts of Slack the Eos Slack adapter
// calls: the Web API methods (auth.test, users.info, users.list, conversations.info, conversations.members,
// chat.postMessage, chat.postEphemeral,
// chat.update, chat.delete, reactions.add, reactions.get, usergroups.list,
// apps.connections.open), with the payload shapes of
// Slack's documentation, and a Socket Mode websocket that says hello, sends events_api envelopes
// and records acks. Tests inject what people do (Send) and read what the bot did (Recorded).
//
// It is test support: it imports nothing of Eos and must not be imported by production code.
package slackfake

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

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

	Mu sync.Mutex
	// Users are the workspace's members by id (users.info, users.list); UserLists counts the
	// users.list calls (pages).
	Users     map[string]User
	UserLists int
	channels  map[string]string // id → name
	// Conversations are what conversations.info and conversations.members say of a channel
	// besides its name (AddConversation); a channel without one is public, with no members.
	// MembersPage caps a page of conversations.members (default 100); MemberLists counts the
	// pages served.
	Conversations map[string]Conversation
	MembersPage   int
	MemberLists   int
	ephemerals    []Call            // chat.postEphemeral
	posts         []Call            // chat.postMessage
	updates       []Call            // chat.update
	reacted       []Call            // reactions.add
	deleted       []Deletion        // chat.delete
	said          map[string]string // channel/ts → user, of the messages people sent (Send)
	Reactions     map[string][]Reaction
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

	// RateLimited is, by Web API method ("reactions.get"), how many of its next calls are
	// refused as Slack refuses a method called too often: HTTP 429 with Retry-After (1 s).
	// Limited counts the calls refused.
	RateLimited map[string]int
	Limited     int

	Connected chan int    // the number of each connection greeted with hello
	Acks      chan string // envelope ids acknowledged
}

// User is a users.info user object (the fields the adapter reads).
type User struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	IsBot   bool   `json:"is_bot"`
	Deleted bool   `json:"deleted"` // deactivated
	// IsRestricted and IsUltraRestricted mark guests (multi- and single-channel).
	IsRestricted      bool `json:"is_restricted"`
	IsUltraRestricted bool `json:"is_ultra_restricted"`
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
	// User is the one person who sees an ephemeral message (chat.postEphemeral).
	User   string
	Blocks []json.RawMessage
}

// New starts a fake on loopback with the bot (BotID), alice (UAL), bob (UBO), carol (UCA), secops
// (USEC) and a bot ci-bot (UCI), the channels #infra (CINFRA001) and #random (CRANDOM01), and
// the user groups @ops ("Operations": bob), @dba ("Databases": carol) and a disabled @retired
// ("Retired": bob). It is closed when the test ends.
func New(t testing.TB) *Fake {
	f := &Fake{
		t: t,
		Users: map[string]User{
			BotID:  {ID: BotID, Name: "eos", IsBot: true},
			"UAL":  {ID: "UAL", Name: "alice"},
			"UBO":  {ID: "UBO", Name: "bob"},
			"UCA":  {ID: "UCA", Name: "carol"},
			"UCI":  {ID: "UCI", Name: "ci-bot", IsBot: true},
			"USEC": {ID: "USEC", Name: "secops"},
		},
		channels:      map[string]string{"CINFRA001": "infra", "CRANDOM01": "random"},
		Conversations: map[string]Conversation{},
		Reactions:     map[string][]Reaction{},
		RateLimited:   map[string]int{},
		said:          map[string]string{},
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
	mux.HandleFunc("/api/users.list", f.web(BotToken, f.usersList))
	mux.HandleFunc("/api/conversations.info", f.web(BotToken, f.conversationsInfo))
	mux.HandleFunc("/api/conversations.members", f.web(BotToken, f.conversationsMembers))
	mux.HandleFunc("/api/chat.postEphemeral", f.web(BotToken, f.postEphemeral))
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
