package slack

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// webOnly is an Adapter against f that is not running: Whisper and CanView need only the Web API.
func webOnly(t *testing.T, f *slackfake.Fake) *Adapter {
	t.Helper()
	a, err := New(Config{AppToken: appToken, BotToken: botToken, APIURL: f.APIURL(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// CanView follows Slack: anyone in the workspace reads a public channel, a guest only if a
// member; private channels, direct and group messages and archived channels only their
// members; a deactivated account nothing; and an answer Slack cannot give is an error.
func TestCanView(t *testing.T) {
	f := slackfake.New(t)
	f.Mu.Lock()
	f.Users["UGST"] = slackfake.User{ID: "UGST", Name: "guest", IsRestricted: true}
	f.Users["USGL"] = slackfake.User{ID: "USGL", Name: "single", IsUltraRestricted: true}
	f.Users["UOLD"] = slackfake.User{ID: "UOLD", Name: "gone", Deleted: true}
	f.MembersPage = 2
	f.Mu.Unlock()
	// Alice is on the last page of the private channel's members.
	f.AddConversation("CPRIV0001", "secret", slackfake.Conversation{Private: true, Members: []string{botID, "UBO", "UOLD", "UCA", "UAL"}})
	f.AddConversation("CPUB00001", "lobby", slackfake.Conversation{Members: []string{botID, "UGST"}})
	f.AddConversation("COLD00001", "archive", slackfake.Conversation{Archived: true, Members: []string{botID, "UBO"}})
	f.AddConversation("DALICE001", "", slackfake.Conversation{IM: true, Members: []string{botID, "UAL"}})
	f.AddConversation("GGROUP001", "", slackfake.Conversation{MPIM: true, Members: []string{botID, "UAL", "UBO"}})
	a := webOnly(t, f)
	ctx := context.Background()
	for _, tc := range []struct {
		user, channel string
		want          bool
	}{
		{"UAL", "CPRIV0001", true},
		{"USEC", "CPRIV0001", false},
		{"UOLD", "CPRIV0001", false}, // still listed, but deactivated
		{"UCA", "CPUB00001", true},   // never joined: public channels are open to members
		{"UGST", "CPUB00001", true},  // a guest who was invited
		{"UGST", "CINFRA001", false}, // a guest elsewhere
		{"USGL", "CPUB00001", false},
		{"UOLD", "CPUB00001", false},
		{"UBO", "COLD00001", true},
		{"UAL", "COLD00001", false},
		{"UAL", "DALICE001", true},
		{"UBO", "DALICE001", false},
		{"UBO", "GGROUP001", true},
		{"UCA", "GGROUP001", false},
	} {
		got, err := a.CanView(ctx, adapters.User{ID: tc.user}, tc.channel)
		if err != nil || got != tc.want {
			t.Errorf("CanView(%s, %s) = %v, %v; want %v", tc.user, tc.channel, got, err, tc.want)
		}
	}
	f.Mu.Lock()
	f.MemberLists = 0
	f.Mu.Unlock()
	if ok, err := a.CanView(ctx, adapters.User{ID: "UAL"}, "CPRIV0001"); !ok || err != nil {
		t.Fatalf("CanView(alice, private) = %v, %v", ok, err)
	}
	f.Mu.Lock()
	if f.MemberLists != 3 {
		t.Errorf("conversations.members was asked %d times for five members two at a time, want 3", f.MemberLists)
	}
	f.Mu.Unlock()
	for _, tc := range []struct{ user, channel string }{{"UNOBODY", "CINFRA001"}, {"UAL", "CUNKNOWN1"}} {
		if got, err := a.CanView(ctx, adapters.User{ID: tc.user}, tc.channel); err == nil || got {
			t.Errorf("CanView(%s, %s) = %v, %v; want an error", tc.user, tc.channel, got, err)
		}
	}
}
