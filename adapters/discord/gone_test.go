package discord

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/adapterstest"
)

// TestGonePostIsErrNoSuchPost: only Discord saying the message is unknown becomes
// adapters.ErrNoSuchPost; the engine cancels a plan whose preview is gone, so a refused token,
// an unknown channel or a refusal must stay an ordinary error.
func TestGonePostIsErrNoSuchPost(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	ctx := context.Background()
	ref := func(ch, id string) adapters.PostRef { return adapters.PostRef{Platform: platform, Channel: ch, ID: id} }
	post := func() adapters.PostRef {
		p, err := a.Post(ctx, textChannel, adapters.NewDoc(adapters.Text{Text: "Plan 7f3a9c21"}))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	kept, deleted := post(), post()
	if err := a.Delete(ctx, deleted); err != nil {
		t.Fatal(err)
	}
	alices := ref(textChannel, f.AddMessage(textChannel, "501", "@eos status").ID)
	// Requests their authors deleted: one in the channel, one in a DM, one after its thread began.
	withdrawn := ref(textChannel, f.AddMessage(textChannel, "501", "@eos create grafana").ID)
	inDM := ref(dmChannel, f.AddMessage(dmChannel, "501", "create grafana").ID)
	threaded := ref(textChannel, f.AddMessage(textChannel, "501", "@eos create nextcloud").ID)
	preview, err := a.Reply(ctx, threaded, adapters.NewDoc(adapters.Heading{Text: "Plan 1"}))
	if err != nil {
		t.Fatal(err)
	}
	f.Mu.Lock()
	for _, p := range []adapters.PostRef{withdrawn, inDM, threaded} {
		delete(f.Messages, p.ID)
	}
	f.Mu.Unlock()
	revoked, err := New(Config{Token: "revoked-token", APIBase: f.APIBase(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}

	doc := adapters.NewDoc(adapters.Text{Text: "x"})
	reactions := func(a *Adapter, p adapters.PostRef) error { _, err := a.Reactions(ctx, p); return err }
	edit := func(a *Adapter, p adapters.PostRef) error { return a.Edit(ctx, p, doc) }
	del := func(a *Adapter, p adapters.PostRef) error { return a.Delete(ctx, p) }
	reply := func(a *Adapter, p adapters.PostRef) error { _, err := a.Reply(ctx, p, doc); return err }
	adapterstest.CheckGone(t, []adapterstest.GoneCase[*Adapter]{
		{Name: "reactions of a post", Op: reactions, A: a, Post: kept},
		{Name: "reactions of a deleted post", Op: reactions, A: a, Post: deleted, ErrText: "Unknown Message", Gone: true},
		{Name: "reactions of a post never made", Op: reactions, A: a, Post: ref(textChannel, "4242"), ErrText: "Unknown Message", Gone: true},
		{Name: "reactions in an unknown channel", Op: reactions, A: a, Post: ref("4243", kept.ID), ErrText: "Unknown Channel"},
		{Name: "reactions with a revoked token", Op: reactions, A: revoked, Post: kept, ErrText: "401"},
		{Name: "edit a post", Op: edit, A: a, Post: kept},
		{Name: "edit a deleted post", Op: edit, A: a, Post: deleted, ErrText: "Unknown Message", Gone: true},
		{Name: "edit someone else's post", Op: edit, A: a, Post: alices, ErrText: "authored by another user"},
		{Name: "delete a deleted post", Op: del, A: a, Post: deleted, ErrText: "Unknown Message", Gone: true},
		{Name: "delete with a revoked token", Op: del, A: revoked, Post: kept, ErrText: "401"},
		{Name: "reply to a deleted request", Op: reply, A: a, Post: withdrawn, ErrText: "Unknown Message", Gone: true},
		{Name: "reply to a deleted request in a DM", Op: reply, A: a, Post: inDM, ErrText: "REPLIES_UNKNOWN_MESSAGE", Gone: true},
		{Name: "reply in the thread of a deleted request", Op: reply, A: a, Post: preview},
		{Name: "reply in an unknown channel", Op: reply, A: a, Post: ref("4243", kept.ID), ErrText: "Unknown Channel"},
	})
}

// TestGoneReadsTheErrorCode: an Invalid Form Body is a missing post only when the field at
// fault is the reply's reference and its code says the message is unknown.
func TestGoneReadsTheErrorCode(t *testing.T) {
	rest := func(code int, body string) error {
		return &discordgo.RESTError{ResponseBody: []byte(body), Message: &discordgo.APIErrorMessage{Code: code}}
	}
	tests := []struct {
		name string
		err  error
		gone bool
	}{
		{"unknown message", rest(10008, `{"code":10008,"message":"Unknown Message"}`), true},
		{"unknown referenced message", rest(50035, `{"code":50035,"message":"Invalid Form Body","errors":{"message_reference":{"_errors":[{"code":"REPLIES_UNKNOWN_MESSAGE","message":"Unknown message"}]}}}`), true},
		{"content too long", rest(50035, `{"code":50035,"message":"Invalid Form Body","errors":{"content":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH","message":"Must be 2000 or fewer in length."}]}}}`), false},
		{"unknown message code on another field", rest(50035, `{"code":50035,"errors":{"content":{"_errors":[{"code":"REPLIES_UNKNOWN_MESSAGE"}]}}}`), false},
		{"malformed body", rest(50035, `<html>`), false},
		{"unknown channel", rest(10003, `{"code":10003,"message":"Unknown Channel"}`), false},
		{"missing access", rest(50001, `{"code":50001,"message":"Missing Access"}`), false},
		{"not a REST error", errors.New("connection reset by peer"), false},
	}
	for _, tt := range tests {
		if got := errors.Is(gone(tt.err), adapters.ErrNoSuchPost); got != tt.gone {
			t.Errorf("%s: gone = %t, want %t", tt.name, got, tt.gone)
		}
		if !errors.Is(gone(tt.err), tt.err) {
			t.Errorf("%s: gone lost the original error", tt.name)
		}
	}
}
