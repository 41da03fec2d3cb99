package slack

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack/slackfake"
)

func TestMemberOfUserGroups(t *testing.T) {
	f := slackfake.New(t)
	a := idle(t, f, "")
	now := time.Unix(1700000000, 0)
	a.groups.now = func() time.Time { return now }
	ctx := context.Background()
	bob, carol := adapters.User{ID: "UBO", Name: "bob"}, adapters.User{ID: "UCA", Name: "carol"}
	lists := func() int { f.Mu.Lock(); defer f.Mu.Unlock(); return f.GroupLists }
	f.Mu.Lock()
	f.UserGroups = append(f.UserGroups,
		// carol's group, named like the handle of bob's group: naming it is no handle.
		slackfake.UserGroup{ID: "S0IMP", Handle: "carols-club", Name: "dba-admins", Users: []string{"UCA"}},
		slackfake.UserGroup{ID: "S0DBAA", Handle: "dba-admins", Name: "DBA admins", Users: []string{"UBO"}})
	f.Mu.Unlock()

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
		{name: "with @ and case, from the cache", user: bob, group: "@OPS", want: true, lists: 1},
		{name: "a name is no handle", user: bob, group: "Operations", err: adapters.ErrNoSuchGroup, lists: 1},
		{name: "a group named like another's handle does not count", user: carol, group: "dba-admins", lists: 1},
		{name: "the group with the handle does", user: bob, group: "dba-admins", want: true, lists: 1},
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
