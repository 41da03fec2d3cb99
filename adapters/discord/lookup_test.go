package discord

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

const daveID = "123456789012345678"

// A handle names whoever has the username now: after a rename the new name finds the same id
// and the old one nobody; a nickname that imitates someone's username never counts.
func TestLookupUserFollowsARename(t *testing.T) {
	f := newFakeDiscord(t)
	f.Mu.Lock()
	f.Users[daveID] = discordfake.User{ID: daveID, Name: "dave"}
	f.Members[daveID] = []string{}
	f.Nicks = map[string]string{daveID: "bob"} // dave calls himself bob in the guild
	f.Mu.Unlock()
	a := newTestAdapter(t, f)
	ctx := context.Background()
	lookup := func(handle, wantID string) {
		t.Helper()
		u, err := a.LookupUser(ctx, handle)
		switch {
		case wantID == "" && !errors.Is(err, adapters.ErrNoSuchUser):
			t.Errorf("LookupUser(%q) = %+v, %v; want ErrNoSuchUser", handle, u, err)
		case wantID != "" && (err != nil || u.ID != wantID):
			t.Errorf("LookupUser(%q) = %+v, %v; want id %s", handle, u, err, wantID)
		}
	}

	lookup("dave", daveID)
	lookup("@DAVE", daveID)
	lookup("bob", "502") // the real bob, not dave's nickname
	lookup(daveID, daveID)
	lookup("999999999999999999", "")
	lookup("nobody", "")
	lookup("@", "")

	f.Mu.Lock()
	f.Users[daveID] = discordfake.User{ID: daveID, Name: "david"}
	f.Mu.Unlock()
	lookup("david", daveID)
	lookup("dave", "")
	if u, _ := a.LookupUser(ctx, daveID); u.Name != "david" {
		t.Errorf("by id after the rename the name is %q, want david", u.Name)
	}
}

// A handle that names two people is refused, naming both, and is not "nobody".
func TestLookupUserRefusesAnAmbiguousHandle(t *testing.T) {
	f := newFakeDiscord(t)
	f.Mu.Lock()
	// A legacy account with a discriminator, and someone whose username is dave's id.
	f.Users["111111111111111111"] = discordfake.User{ID: "111111111111111111", Name: "sam", Discriminator: "4242"}
	f.Users["222222222222222222"] = discordfake.User{ID: "222222222222222222", Name: "sam"}
	f.Users[daveID] = discordfake.User{ID: daveID, Name: "dave"}
	f.Users["333333333333333333"] = discordfake.User{ID: "333333333333333333", Name: daveID}
	for _, id := range []string{"111111111111111111", "222222222222222222", daveID, "333333333333333333"} {
		f.Members[id] = []string{}
	}
	f.Mu.Unlock()
	a := newTestAdapter(t, f)
	for handle, ids := range map[string][]string{
		"sam":  {"111111111111111111", "222222222222222222"},
		daveID: {daveID, "333333333333333333"},
	} {
		u, err := a.LookupUser(context.Background(), handle)
		if !errors.Is(err, errAmbiguousUser) || errors.Is(err, adapters.ErrNoSuchUser) ||
			!strings.Contains(err.Error(), ids[0]) || !strings.Contains(err.Error(), ids[1]) {
			t.Errorf("LookupUser(%q) = %+v, %v; want an ambiguity naming %v", handle, u, err, ids)
		}
	}
}

// When the search is full of members whose names only start with the handle, the answer is
// unknown, not "nobody".
func TestLookupUserRefusesATruncatedSearch(t *testing.T) {
	f := newFakeDiscord(t)
	f.Mu.Lock()
	for i := range searchLimit {
		id := fmt.Sprint(400000000000000000 + i)
		f.Users[id] = discordfake.User{ID: id, Name: fmt.Sprintf("ann%d", i)}
		f.Members[id] = []string{}
	}
	f.Mu.Unlock()
	a := newTestAdapter(t, f)
	if u, err := a.LookupUser(context.Background(), "ann"); err == nil || errors.Is(err, adapters.ErrNoSuchUser) {
		t.Errorf("LookupUser(ann) = %+v, %v; want an error that is not ErrNoSuchUser", u, err)
	}
	if u, err := a.LookupUser(context.Background(), "ann999"); err != nil || u.Name != "ann999" {
		t.Errorf("LookupUser(ann999) = %+v, %v", u, err)
	}
}

// Two roles with one name are refused, naming both; the role's id still works.
func TestMemberOfRefusesTwoRolesWithOneName(t *testing.T) {
	f := newFakeDiscord(t)
	f.Mu.Lock()
	// carol made a role called OPS and gave it to herself; another role is called "701".
	f.Roles = append(f.Roles, discordfake.Role{ID: "703", Name: "OPS"}, discordfake.Role{ID: "704", Name: "701"})
	f.Members["504"] = append(f.Members["504"], "703")
	f.Mu.Unlock()
	a := newTestAdapter(t, f)
	ctx := context.Background()
	bob, carol := adapters.User{ID: "502", Name: "bob"}, adapters.User{ID: "504", Name: "carol"}

	for _, tc := range []struct {
		user  adapters.User
		group string
		clash []string
	}{{carol, "ops", []string{"700", "703"}}, {bob, "@ops", []string{"700", "703"}}, {carol, "701", []string{"701", "704"}}} {
		got, err := a.MemberOf(ctx, tc.user, tc.group)
		if got || !errors.Is(err, errRoleClash) || errors.Is(err, adapters.ErrNoSuchGroup) ||
			!strings.Contains(err.Error(), "id "+tc.clash[0]) || !strings.Contains(err.Error(), "id "+tc.clash[1]) {
			t.Errorf("MemberOf(%s, %s) = %t, %v; want a clash naming roles %v", tc.user.Name, tc.group, got, err, tc.clash)
		}
	}
	for _, tc := range []struct {
		user  adapters.User
		group string
		want  bool
	}{{bob, "700", true}, {carol, "700", false}, {carol, "703", true}, {bob, "dba", false}} {
		if got, err := a.MemberOf(ctx, tc.user, tc.group); got != tc.want || err != nil {
			t.Errorf("MemberOf(%s, %s) = %t, %v; want %t", tc.user.Name, tc.group, got, err, tc.want)
		}
	}
}
