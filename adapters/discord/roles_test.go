package discord

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

func TestMemberOfRoles(t *testing.T) {
	f := newFakeDiscord(t)
	a := newTestAdapter(t, f)
	now := time.Unix(1700000000, 0)
	a.roles.now = func() time.Time { return now }
	ctx := context.Background()
	user := func(id, name string) adapters.User { return adapters.User{ID: id, Name: name} }
	alice, bob, carol, stranger := user("501", "alice"), user("502", "bob"), user("504", "carol"), user("999", "stranger")
	lists := func() int { f.Mu.Lock(); defer f.Mu.Unlock(); return f.RoleLists }

	steps := []struct {
		name    string
		advance time.Duration
		change  func() // to the guild, before the step
		user    adapters.User
		group   string
		want    bool
		err     error
		lists   int // role list calls after the step
	}{
		{name: "bob has ops", user: bob, group: "ops", want: true, lists: 1},
		{name: "alice has not", user: alice, group: "ops", lists: 1},
		{name: "@ and case", user: carol, group: "@DBA", want: true, lists: 1},
		{name: "everyone has @everyone", user: alice, group: "everyone", want: true, lists: 1},
		{name: "not in the guild", user: stranger, group: "ops", lists: 1},
		{name: "a role given now counts now", user: alice, group: "ops", want: true, lists: 1,
			change: func() { f.Members["501"] = []string{"700"} }},
		{name: "unknown role, list just read", user: bob, group: "sre", err: adapters.ErrNoSuchGroup, lists: 1,
			change: func() { f.Roles = append(f.Roles, discordfake.Role{ID: "702", Name: "sre"}) }},
		{name: "unknown role on an older list reads it again", advance: 10 * time.Second, user: bob, group: "sre", lists: 2},
		{name: "a minute later the list is read again", advance: 61 * time.Second, user: bob, group: "ops", want: true, lists: 3},
		{name: "no such role", advance: 10 * time.Second, user: bob, group: "nope", err: adapters.ErrNoSuchGroup, lists: 4},
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
			t.Errorf("%s: %d role list calls, want %d", s.name, n, s.lists)
		}
	}
}

func TestMemberOfChoosesTheGuild(t *testing.T) {
	f := newFakeDiscord(t)
	f.Guilds = append(f.Guilds, "101")
	bob := adapters.User{ID: "502", Name: "bob"}
	ctx := context.Background()

	_, err := newTestAdapter(t, f).MemberOf(ctx, bob, "ops")
	if err == nil || !strings.Contains(err.Error(), "Config.Guild") {
		t.Errorf("a bot in two guilds without Config.Guild: err = %v, want one naming Config.Guild", err)
	}
	named, err := New(Config{Token: fakeToken, APIBase: f.APIBase(), Guild: guildID, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := named.MemberOf(ctx, bob, "ops"); !ok || err != nil {
		t.Errorf("with Config.Guild: MemberOf = %t, %v; want true", ok, err)
	}
	if _, err := New(Config{Token: fakeToken, Guild: "my-guild"}); err == nil {
		t.Error("New accepted a guild that is not an id")
	}
}
