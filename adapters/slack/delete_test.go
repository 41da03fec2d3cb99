package slack

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

// idle is an Adapter for f that is not running: Delete and MemberOf need no socket.
func idle(t *testing.T, f *slackfake.Fake, adminToken string) *Adapter {
	t.Helper()
	a, err := New(Config{AppToken: appToken, BotToken: botToken, AdminUserToken: adminToken, APIURL: f.APIURL(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestDelete(t *testing.T) {
	f := slackfake.New(t)
	r := start(t, f)
	ctx := context.Background()
	own, err := r.Post(ctx, "CINFRA001", adapters.NewDoc(adapters.Text{Text: "the bot's own"}))
	if err != nil {
		t.Fatal(err)
	}
	f.Send(mention("UAL", "CINFRA001", "1700000000.000100", "<@UBOT> create grafana --admin-password hunter2"))
	next(t, r.h.msgs, "alice's message")
	alices := adapters.PostRef{Platform: platform, Channel: "CINFRA001", ID: "1700000000.000100"}
	withAdmin := idle(t, f, slackfake.AdminUserToken)

	tests := []struct {
		name      string
		a         *Adapter
		post      adapters.PostRef
		refused   bool   // ErrNotPermitted
		errText   string // in the error
		deletedBy string // the fake's record of the deletion; "" for none
	}{
		{name: "bot token, bot's own post", a: r.Adapter, post: own, deletedBy: "bot"},
		{name: "bot token, alice's post", a: r.Adapter, post: alices, refused: true, errText: "set AdminUserToken"},
		{name: "admin token, alice's post", a: withAdmin, post: alices, deletedBy: "admin"},
		{name: "already deleted", a: withAdmin, post: alices, errText: "message_not_found"},
	}
	for _, tt := range tests {
		before := len(f.Deleted())
		err := tt.a.Delete(ctx, tt.post)
		if errors.Is(err, adapters.ErrNotPermitted) != tt.refused || (tt.errText == "") != (err == nil) ||
			err != nil && !strings.Contains(err.Error(), tt.errText) {
			t.Errorf("%s: Delete = %v, want refused %t with %q", tt.name, err, tt.refused, tt.errText)
		}
		got := f.Deleted()[before:]
		want := []slackfake.Deletion{{Channel: tt.post.Channel, TS: tt.post.ID, By: tt.deletedBy}}
		if tt.deletedBy == "" {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: deleted %+v, want %+v", tt.name, got, want)
		}
	}
}
