package slack

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

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

func TestMemberOfUserGroups(t *testing.T) {
	f := slackfake.New(t)
	a := idle(t, f, "")
	now := time.Unix(1700000000, 0)
	a.groups.now = func() time.Time { return now }
	ctx := context.Background()
	bob, carol := adapters.User{ID: "UBO", Name: "bob"}, adapters.User{ID: "UCA", Name: "carol"}
	lists := func() int { f.Mu.Lock(); defer f.Mu.Unlock(); return f.GroupLists }

	steps := []struct {
		name    string
		advance time.Duration
		change  func() // to the workspace, before the step
		user    adapters.User
		group   string
		want    bool
		err     error
		lists   int // usergroups.list calls after the step
	}{
		{name: "by handle", user: bob, group: "ops", want: true, lists: 1},
		{name: "with @ and by name, from the cache", user: bob, group: "@Operations", want: true, lists: 1},
		{name: "not a member, list just read", user: carol, group: "ops", lists: 1},
		{name: "disabled group", user: bob, group: "retired", err: adapters.ErrNoSuchGroup, lists: 1},
		{name: "carol added: a fresh list is trusted", user: carol, group: "ops", lists: 1,
			change: func() { f.UserGroups[0].Users = append(f.UserGroups[0].Users, "UCA") }},
		{name: "a miss on an older list reads it again", advance: 10 * time.Second, user: carol, group: "ops", want: true, lists: 2},
		{name: "a new group is found at once", advance: 10 * time.Second, user: bob, group: "sre", want: true, lists: 3,
			change: func() {
				f.UserGroups = append(f.UserGroups, slackfake.UserGroup{ID: "S0SRE", Handle: "sre", Name: "SRE", Users: []string{"UBO"}})
			}},
		{name: "a hit within the minute asks nothing", advance: 30 * time.Second, user: bob, group: "ops", want: true, lists: 3},
		{name: "after a minute the list is read again", advance: 31 * time.Second, user: bob, group: "dba", lists: 4},
		{name: "no such group", advance: 10 * time.Second, user: bob, group: "nope", err: adapters.ErrNoSuchGroup, lists: 5},
	}
	for _, s := range steps {
		now = now.Add(s.advance)
		if s.change != nil {
			f.Mu.Lock()
			s.change()
			f.Mu.Unlock()
		}
		got, err := a.MemberOf(ctx, s.user, s.group)
		if got != s.want || !errors.Is(err, s.err) {
			t.Errorf("%s: MemberOf(%s, %s) = %t, %v; want %t, %v", s.name, s.user.Name, s.group, got, err, s.want, s.err)
		}
		if n := lists(); n != s.lists {
			t.Errorf("%s: %d usergroups.list calls, want %d", s.name, n, s.lists)
		}
	}
}
