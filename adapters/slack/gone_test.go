package slack

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
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
	tests := []struct {
		name    string
		op      func(*Adapter, adapters.PostRef) error
		a       *Adapter
		post    adapters.PostRef
		errText string // in the error; "" for none
		gone    bool   // errors.Is(err, adapters.ErrNoSuchPost)
	}{
		{name: "reactions of a post", op: reactions, a: a, post: kept},
		{name: "reactions of a deleted post", op: reactions, a: a, post: deleted, errText: "message_not_found", gone: true},
		{name: "reactions of a post never made", op: reactions, a: a, post: never, errText: "message_not_found", gone: true},
		{name: "reactions in an unknown channel", op: reactions, a: a, post: elsewhere, errText: "channel_not_found"},
		{name: "reactions with a revoked token", op: reactions, a: revoked, post: kept, errText: "invalid_auth"},
		{name: "edit a post", op: edit, a: a, post: kept},
		{name: "edit a deleted post", op: edit, a: a, post: deleted, errText: "message_not_found", gone: true},
		{name: "edit with a revoked token", op: edit, a: revoked, post: kept, errText: "invalid_auth"},
		{name: "delete a deleted post", op: del, a: a, post: deleted, errText: "message_not_found", gone: true},
		{name: "delete with a revoked token", op: del, a: revoked, post: kept, errText: "invalid_auth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.op(tt.a, tt.post)
			if (tt.errText == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.errText) {
				t.Errorf("err = %v, want %q", err, tt.errText)
			}
			if got := errors.Is(err, adapters.ErrNoSuchPost); got != tt.gone {
				t.Errorf("errors.Is(%v, ErrNoSuchPost) = %t, want %t", err, got, tt.gone)
			}
		})
	}
}
