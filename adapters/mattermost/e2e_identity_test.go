package mattermost

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/mattermost/mattermost/server/public/model"
)

// A person who renames themselves through the server's API is found under the new name with
// the same id, the old name names nobody at once, the events after the rename carry the new
// name, and a deactivated account is nobody.
func TestE2ERenamedUserKeepsTheirID(t *testing.T) {
	s := realServer(t)
	a := s.start(t, nil)
	ctx := context.Background()
	n := nonce()
	old, renamed, password := "p"+n, "r"+n, "Passw0rd-"+n

	u, _, err := s.Admin.CreateUser(ctx, &model.User{Username: old, Email: old + "@example.org", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Admin.AddTeamMember(ctx, s.Team.Id, u.Id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Admin.AddChannelMember(ctx, s.Infra.Id, u.Id); err != nil {
		t.Fatal(err)
	}
	c := model.NewAPIv4Client(s.URL)
	if _, _, err := c.Login(ctx, old, password); err != nil {
		t.Fatal(err)
	}
	person := &mmtest.Person{User: u, Client: c}

	if got, err := a.LookupUser(ctx, "@"+strings.ToUpper(old)); err != nil || got != (adapters.User{ID: u.Id, Name: old}) {
		t.Fatalf("LookupUser(%s) = %+v, %v; want id %s", old, got, err, u.Id)
	}
	person.Say(t, s.Infra.Id, "", "@eos before "+n)
	if m := a.rec.message(t, func(m adapters.Message) bool { return m.Text == "@eos before "+n }, nil); m.Author.Name != old {
		t.Errorf("before the rename the author is %+v", m.Author)
	}

	if _, _, err := s.Admin.PatchUser(ctx, u.Id, &model.UserPatch{Username: model.NewPointer(renamed)}); err != nil {
		t.Fatal(err)
	}
	// The server announces the rename (user_updated) before it takes the post, so the post
	// arrives under the new name though the adapter had the old one cached.
	person.Say(t, s.Infra.Id, "", "@eos after "+n)
	if m := a.rec.message(t, func(m adapters.Message) bool { return m.Text == "@eos after "+n }, nil); m.Author != (adapters.User{ID: u.Id, Name: renamed}) {
		t.Errorf("after the rename the author is %+v, want %s with id %s", m.Author, renamed, u.Id)
	}

	if got, err := a.LookupUser(ctx, renamed); err != nil || got.ID != u.Id || got.Name != renamed {
		t.Errorf("after the rename LookupUser(%s) = %+v, %v; want id %s", renamed, got, err, u.Id)
	}
	if got, err := a.LookupUser(ctx, old); !errors.Is(err, adapters.ErrNoSuchUser) {
		t.Errorf("after the rename LookupUser(%s) = %+v, %v; want ErrNoSuchUser", old, got, err)
	}
	if _, err := s.Admin.UpdateUserActive(ctx, u.Id, false); err != nil {
		t.Fatal(err)
	}
	if got, err := a.LookupUser(ctx, renamed); !errors.Is(err, adapters.ErrNoSuchUser) {
		t.Errorf("after deactivation LookupUser(%s) = %+v, %v; want ErrNoSuchUser", renamed, got, err)
	}
}
