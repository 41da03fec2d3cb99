package mattermost

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

var _ adapters.ChangeHandler = (*recorder)(nil)

func (r *recorder) HandleEdit(_ context.Context, _ adapters.Adapter, m adapters.Message) {
	r.edits <- m
}

func (r *recorder) HandleDelete(_ context.Context, _ adapters.Adapter, p adapters.PostRef) {
	r.deletes <- p
}

// edit waits for the first delivered edit that match accepts; earlier ones go to skipped.
func (r *recorder) edit(t *testing.T, match func(adapters.Message) bool, skipped func(adapters.Message)) adapters.Message {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case m := <-r.edits:
			if match(m) {
				return m
			}
			if skipped != nil {
				skipped(m)
			}
		case <-deadline:
			t.Fatalf("no matching edit delivered within %s", waitFor)
		}
	}
}

// deletion waits for the first delivered deletion that match accepts; earlier ones go to
// skipped.
func (r *recorder) deletion(t *testing.T, match func(adapters.PostRef) bool, skipped func(adapters.PostRef)) adapters.PostRef {
	t.Helper()
	deadline := time.After(waitFor)
	for {
		select {
		case p := <-r.deletes:
			if match(p) {
				return p
			}
			if skipped != nil {
				skipped(p)
			}
		case <-deadline:
			t.Fatalf("no matching deletion delivered within %s", waitFor)
		}
	}
}

// People's edits and deletions reach a ChangeHandler from the real server's post_edited and
// post_deleted events, with the post's thread; an edit that takes the mention out is still
// delivered; the bot's own edits and deletions are not.
func TestE2EEditsAndDeletionsAreDelivered(t *testing.T) {
	s := realServer(t)
	a := s.start(t, nil)
	ctx := context.Background()
	n := nonce()

	req := s.Alice.Say(t, s.Infra.Id, "", "@eos create grafana "+n)
	a.rec.message(t, func(m adapters.Message) bool { return strings.Contains(m.Text, n) }, nil)
	own, err := a.Reply(ctx, adapters.PostRef{Platform: platform, Channel: s.Infra.Id, ID: req.Id}, adapters.NewDoc(adapters.Text{Text: "Plan " + n}))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Edit(ctx, own, adapters.NewDoc(adapters.Text{Text: "Plan " + n + " · 1 of 2"})); err != nil {
		t.Fatal(err)
	}
	notOwn := func(m adapters.Message) {
		if m.Post.ID == own.ID {
			t.Errorf("the bot's own edit was delivered: %+v", m)
		}
	}

	edited := "@eos create grafana --port 4000 " + n
	if _, _, err := s.Alice.Client.PatchPost(ctx, req.Id, &model.PostPatch{Message: &edited}); err != nil {
		t.Fatal(err)
	}
	got := a.rec.edit(t, func(m adapters.Message) bool { return m.Post.ID == req.Id }, notOwn)
	want := adapters.PostRef{Platform: platform, Channel: s.Infra.Id, ID: req.Id}
	if got.Post != want || got.Text != edited || got.Author.Name != "alice" || got.Author.ID != s.Alice.User.Id || got.At.IsZero() {
		t.Errorf("edit delivered as %+v, want alice's %q on %+v", got, edited, want)
	}
	noMention := "never mind " + n
	if _, _, err := s.Alice.Client.PatchPost(ctx, req.Id, &model.PostPatch{Message: &noMention}); err != nil {
		t.Fatal(err)
	}
	if got := a.rec.edit(t, func(m adapters.Message) bool { return m.Post.ID == req.Id }, notOwn); got.Text != noMention {
		t.Errorf("second edit delivered as %q, want %q", got.Text, noMention)
	}

	// A reply in the thread, deleted: delivered with its thread. The bot's own post, deleted
	// by the bot first, is not.
	reply := s.Bob.Say(t, s.Infra.Id, req.Id, "@eos status "+n)
	a.rec.message(t, func(m adapters.Message) bool { return m.Post.ID == reply.Id }, nil)
	if err := a.Delete(ctx, own); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Bob.Client.DeletePost(ctx, reply.Id); err != nil {
		t.Fatal(err)
	}
	notOwnPost := func(p adapters.PostRef) {
		if p.ID == own.ID {
			t.Errorf("the bot's own deletion was delivered: %+v", p)
		}
	}
	del := a.rec.deletion(t, func(p adapters.PostRef) bool { return p.ID == reply.Id }, notOwnPost)
	if want := (adapters.PostRef{Platform: platform, Channel: s.Infra.Id, ID: reply.Id, Thread: req.Id}); del != want {
		t.Errorf("deletion delivered as %+v, want %+v", del, want)
	}
	if _, err := s.Alice.Client.DeletePost(ctx, req.Id); err != nil {
		t.Fatal(err)
	}
	if del := a.rec.deletion(t, func(p adapters.PostRef) bool { return p.ID == req.Id }, notOwnPost); del != want {
		t.Errorf("deletion of the request delivered as %+v, want %+v", del, want)
	}
}
