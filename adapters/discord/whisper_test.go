package discord

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

// A whisper goes to the direct message channel between the bot and the person, the same one
// each time, and nowhere else.
func TestWhisperGoesToTheDM(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	ctx := context.Background()
	alice := adapters.User{ID: "501", Name: "alice"}
	near := adapters.PostRef{Platform: platform, Channel: discordfake.TextChannel, ID: "990"}
	for _, link := range []string{"http://127.0.0.1/link/one", "http://127.0.0.1/link/two"} {
		if err := a.Whisper(ctx, alice, near, adapters.NewDoc(adapters.Text{Text: "sign in: " + link})); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Whisper(ctx, adapters.User{ID: "598", Name: "ghost"}, near, adapters.NewDoc(adapters.Text{Text: "x"})); err == nil {
		t.Error("a whisper to a user Discord does not know was sent")
	}
	if err := a.Whisper(ctx, adapters.User{Name: "nobody"}, near, adapters.NewDoc(adapters.Text{Text: "x"})); err == nil {
		t.Error("a whisper to a user without an id was sent")
	}

	sent := f.BotMessages()
	if len(sent) != 2 {
		t.Fatalf("the bot sent %d messages, want 2: %+v", len(sent), sent)
	}
	f.Mu.Lock()
	defer f.Mu.Unlock()
	for i, m := range sent {
		ch := f.Channels[m.Channel]
		if ch.Type != 1 || !slices.Equal(ch.Recipients, []string{"501"}) || !strings.Contains(m.Content, "/link/") {
			t.Errorf("message %d %q went to channel %+v, want the DM with alice", i, m.Content, ch)
		}
	}
	if sent[0].Channel != sent[1].Channel {
		t.Errorf("the whispers went to two channels, %s and %s", sent[0].Channel, sent[1].Channel)
	}
}
