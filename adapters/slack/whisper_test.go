package slack

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// A whisper is an ephemeral message to the person, in the channel asked in, in the thread when
// the request was a reply; to someone outside a channel Slack refuses it, and so does Whisper.
func TestWhisperIsEphemeral(t *testing.T) {
	f := slackfake.New(t)
	f.AddConversation("CPRIV0001", "secret", slackfake.Conversation{Private: true, Members: []string{botID, "UAL"}})
	a := webOnly(t, f)
	ctx := context.Background()
	alice := adapters.User{ID: "UAL", Name: "alice"}
	doc := adapters.NewDoc(adapters.Text{Text: "sign in: http://127.0.0.1/link/abc"})

	if err := a.Whisper(ctx, alice, adapters.PostRef{Platform: platform, Channel: "CINFRA001", ID: "1700000000.000100"}, doc); err != nil {
		t.Fatal(err)
	}
	if err := a.Whisper(ctx, alice, adapters.PostRef{Platform: platform, Channel: "CPRIV0001", ID: "1700000000.000300", Thread: "1700000000.000200"}, doc); err != nil {
		t.Fatal(err)
	}
	if err := a.Whisper(ctx, adapters.User{ID: "UBO", Name: "bob"}, adapters.PostRef{Platform: platform, Channel: "CPRIV0001", ID: "1"}, doc); err == nil || !strings.Contains(err.Error(), "user_not_in_channel") {
		t.Errorf("whisper to bob outside the channel: %v, want user_not_in_channel", err)
	}
	if err := a.Whisper(ctx, alice, adapters.PostRef{}, doc); err == nil {
		t.Error("a whisper without a channel was sent")
	}

	got := f.Ephemerals()
	if len(got) != 2 {
		t.Fatalf("ephemerals = %+v, want two", got)
	}
	for i, want := range []slackfake.Call{{Channel: "CINFRA001", User: "UAL"}, {Channel: "CPRIV0001", User: "UAL", ThreadTS: "1700000000.000200"}} {
		if got[i].Channel != want.Channel || got[i].User != want.User || got[i].ThreadTS != want.ThreadTS ||
			!strings.Contains(got[i].Content(), "http://127.0.0.1/link/abc") {
			t.Errorf("ephemeral %d = %+v (%q), want in %s to %s, thread %q", i, got[i], got[i].Content(), want.Channel, want.User, want.ThreadTS)
		}
	}
	if posts, _, _ := f.Recorded(); len(posts) != 0 {
		t.Errorf("the whisper was also posted for everyone: %+v", posts)
	}
}
