package discord

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

func TestDelete(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	ctx := context.Background()
	own, err := a.Post(ctx, textChannel, adapters.NewDoc(adapters.Text{Text: "the bot's own"}))
	if err != nil {
		t.Fatal(err)
	}
	ref := func(m *discordfake.Message) adapters.PostRef {
		return adapters.PostRef{Platform: platform, Channel: m.Channel, ID: m.ID}
	}
	inChannel := ref(f.AddMessage(textChannel, "501", "@eos create grafana --admin-password hunter2"))
	inDM := ref(f.AddMessage(dmChannel, "501", "create grafana --admin-password hunter2"))

	tests := []struct {
		name    string
		manage  bool // the bot has Manage Messages
		post    adapters.PostRef
		deleted bool
		refused bool // ErrNotPermitted
	}{
		{name: "own message, no permission needed", post: own, deleted: true},
		{name: "alice's, without Manage Messages", post: inChannel, refused: true},
		{name: "alice's in a DM, never", manage: true, post: inDM, refused: true},
		{name: "alice's, with Manage Messages", manage: true, post: inChannel, deleted: true},
		{name: "gone already", manage: true, post: inChannel},
	}
	for _, tt := range tests {
		f.Mu.Lock()
		f.ManageMessages = tt.manage
		f.Mu.Unlock()
		before := len(f.Deleted())
		err := a.Delete(ctx, tt.post)
		if (err == nil) != tt.deleted || errors.Is(err, adapters.ErrNotPermitted) != tt.refused {
			t.Errorf("%s: Delete = %v, want deleted %t, refused %t", tt.name, err, tt.deleted, tt.refused)
		}
		if tt.refused && !strings.Contains(err.Error(), "Manage Messages") {
			t.Errorf("%s: the error does not say what the bot lacks: %v", tt.name, err)
		}
		got := f.Deleted()[before:]
		if want := []string{tt.post.ID}; tt.deleted != slices.Equal(got, want) || !tt.deleted && len(got) > 0 {
			t.Errorf("%s: deleted %v", tt.name, got)
		}
	}
}
