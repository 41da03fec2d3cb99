package mattermost

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// On the real server: while no process is connected, alice edits one request and deletes
// another (with its thread, where the bot replied), and the bot edits and deletes posts of its
// own. The next process, catching up from
// the stored cursor, delivers alice's edit (with the text as it reads now) and her deletion,
// each once, and nothing of the bot's posts; the former text the server keeps of an edit
// (listed as a deleted post) is not taken for a deletion.
func TestE2EChangesWhileNoProcessIsConnectedAreCaughtUp(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	ch := s.Channel(t, "changes-gap")
	store := newMemCursors()
	cfg := s.config()
	cfg.Channels = []string{ch.Id}
	cfg.Cursors = store
	n := nonce()

	a := s.runConfig(t, cfg, nil)
	a.waitConnected(t)
	edited := s.Alice.Say(t, ch.Id, "", "@eos create grafana "+n)
	deleted := s.Alice.Say(t, ch.Id, "", "@eos create loki "+n)
	later := s.Alice.Say(t, ch.Id, "", "@eos create tempo "+n)
	a.rec.message(t, func(m adapters.Message) bool { return m.Post.ID == later.Id }, nil)
	own, err := a.Reply(ctx, adapters.PostRef{Platform: platform, Channel: ch.Id, ID: edited.Id}, adapters.NewDoc(adapters.Text{Text: "Plan " + n}))
	if err != nil {
		t.Fatal(err)
	}
	// The bot's reply goes with the thread alice deletes; its post at channel level it
	// deletes itself.
	if _, err := a.Reply(ctx, adapters.PostRef{Platform: platform, Channel: ch.Id, ID: deleted.Id}, adapters.NewDoc(adapters.Text{Text: "Plan 2 " + n})); err != nil {
		t.Fatal(err)
	}
	ownGone, err := a.Post(ctx, ch.Id, adapters.NewDoc(adapters.Text{Text: "Digest " + n}))
	if err != nil {
		t.Fatal(err)
	}
	store.wait(t, ch.Id, s.Post(t, ownGone.ID).CreateAt)
	a.stop(t)

	// Nobody is connected.
	text := "@eos create grafana --port 4000 " + n
	if _, _, err := s.Alice.Client.PatchPost(ctx, edited.Id, &model.PostPatch{Message: &text}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Alice.Client.DeletePost(ctx, deleted.Id); err != nil {
		t.Fatal(err)
	}
	botClient := model.NewAPIv4Client(s.URL)
	botClient.SetToken(s.BotToken)
	ownText := "Plan " + n + " · cancelled"
	if _, _, err := botClient.PatchPost(ctx, own.ID, &model.PostPatch{Message: &ownText}); err != nil {
		t.Fatal(err)
	}
	if _, err := botClient.DeletePost(ctx, ownGone.ID); err != nil {
		t.Fatal(err)
	}

	b := s.runConfig(t, cfg, nil)
	b.waitConnected(t)
	// Live, after the catch-up: every change delivered before these came from the catch-up.
	afterText := "@eos create tempo --port 3200 " + n
	if _, _, err := s.Alice.Client.PatchPost(ctx, later.Id, &model.PostPatch{Message: &afterText}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Alice.Client.DeletePost(ctx, later.Id); err != nil {
		t.Fatal(err)
	}

	var edits []adapters.Message
	for {
		m := b.rec.edit(t, func(adapters.Message) bool { return true }, nil)
		if m.Post.ID == later.Id {
			break
		}
		edits = append(edits, m)
	}
	wantRef := adapters.PostRef{Platform: platform, Channel: ch.Id, ID: edited.Id}
	if len(edits) != 1 || edits[0].Post != wantRef || edits[0].Text != text || edits[0].Author.ID != s.Alice.User.Id || edits[0].At.IsZero() {
		t.Errorf("the catch-up delivered edits %+v, want alice's %q on %+v once", edits, text, wantRef)
	}
	var deletions []adapters.PostRef
	for {
		p := b.rec.deletion(t, func(adapters.PostRef) bool { return true }, nil)
		if p.ID == later.Id {
			break
		}
		deletions = append(deletions, p)
	}
	if want := (adapters.PostRef{Platform: platform, Channel: ch.Id, ID: deleted.Id}); len(deletions) != 1 || deletions[0] != want {
		t.Errorf("the catch-up delivered deletions %+v, want %+v once (not the bot's, not the edit's former text)", deletions, want)
	}
	for _, m := range edits {
		if strings.Contains(m.Text, "Plan ") {
			t.Errorf("the bot's own edit was delivered: %+v", m)
		}
	}
}
