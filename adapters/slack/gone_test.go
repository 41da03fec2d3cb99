package slack

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/adapterstest"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// TestGonePostIsErrNoSuchPost: only Slack's message_not_found becomes adapters.ErrNoSuchPost;
// the engine cancels a plan whose preview is gone, so a refused token or an unknown channel must
// stay an ordinary error.
func TestGonePostIsErrNoSuchPost(t *testing.T) {
	f := slackfake.New(t)
	ctx := context.Background()
	a := idle(t, f, "")
	post := func() adapters.PostRef {
		ref, err := a.Post(ctx, "CINFRA001", adapters.NewDoc(adapters.Text{Text: "Plan 7f3a9c21"}))
		if err != nil {
			t.Fatal(err)
		}
		return ref
	}
	kept, deleted := post(), post()
	if err := a.Delete(ctx, deleted); err != nil {
		t.Fatal(err)
	}
	never := adapters.PostRef{Platform: platform, Channel: "CINFRA001", ID: "1700000000.999999"}
	elsewhere := adapters.PostRef{Platform: platform, Channel: "CNOWHERE1", ID: kept.ID}
	revoked, err := New(Config{AppToken: appToken, BotToken: "xoxb-revoked", APIURL: f.APIURL()})
	if err != nil {
		t.Fatal(err)
	}

	reactions := func(a *Adapter, p adapters.PostRef) error { _, err := a.Reactions(ctx, p); return err }
	edit := func(a *Adapter, p adapters.PostRef) error {
		return a.Edit(ctx, p, adapters.NewDoc(adapters.Text{Text: "x"}))
	}
	del := func(a *Adapter, p adapters.PostRef) error { return a.Delete(ctx, p) }
	adapterstest.CheckGone(t, []adapterstest.GoneCase[*Adapter]{
		{Name: "reactions of a post", Op: reactions, A: a, Post: kept},
		{Name: "reactions of a deleted post", Op: reactions, A: a, Post: deleted, ErrText: "message_not_found", Gone: true},
		{Name: "reactions of a post never made", Op: reactions, A: a, Post: never, ErrText: "message_not_found", Gone: true},
		{Name: "reactions in an unknown channel", Op: reactions, A: a, Post: elsewhere, ErrText: "channel_not_found"},
		{Name: "reactions with a revoked token", Op: reactions, A: revoked, Post: kept, ErrText: "invalid_auth"},
		{Name: "edit a post", Op: edit, A: a, Post: kept},
		{Name: "edit a deleted post", Op: edit, A: a, Post: deleted, ErrText: "message_not_found", Gone: true},
		{Name: "edit with a revoked token", Op: edit, A: revoked, Post: kept, ErrText: "invalid_auth"},
		{Name: "delete a deleted post", Op: del, A: a, Post: deleted, ErrText: "message_not_found", Gone: true},
		{Name: "delete with a revoked token", Op: del, A: revoked, Post: kept, ErrText: "invalid_auth"},
	})
}
