package mmtest

import (
	"context"
	"testing"

	"github.com/mattermost/mattermost/server/public/model"
)

// NewPerson creates an account of the test's own, named name (make it unique with Nonce), a
// member of the team, of channel infra and of channels, with a client logged in as it. Tests
// that rename people use one: renaming alice, bob or carol would pull them from under the
// tests that run beside it.
func (s *Server) NewPerson(t testing.TB, name string, channels ...*model.Channel) *Person {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	password := "Passw0rd-" + name
	u, _, err := s.Admin.CreateUser(ctx, &model.User{Username: name, Email: name + "@example.org", Password: password})
	if err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	for _, ch := range append([]*model.Channel{s.Infra}, channels...) {
		if err := s.join(ctx, ch.Id, u.Id); err != nil {
			t.Fatalf("%s joining %s: %v", name, ch.Name, err)
		}
	}
	c := model.NewAPIv4Client(s.URL)
	if _, _, err := c.Login(ctx, name, password); err != nil {
		t.Fatalf("logging in as %s: %v", name, err)
	}
	return &Person{User: u, Client: c}
}

// Rename changes p's username to name through the server's API as the system admin
// (PATCH /api/v4/users/{id}/patch), the way an account's name changes on a real server, and
// keeps p.User up to date. The id stays the same; the old name is free for anyone at once.
func (s *Server) Rename(t testing.TB, p *Person, name string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	u, _, err := s.Admin.PatchUser(ctx, p.User.Id, &model.UserPatch{Username: model.NewPointer(name)})
	if err != nil {
		t.Fatalf("renaming %s to %s: %v", p.User.Username, name, err)
	}
	if u.Id != p.User.Id || u.Username != name {
		t.Fatalf("renaming %s (%s) to %s: the server answered %s (%s)", p.User.Username, p.User.Id, name, u.Username, u.Id)
	}
	p.User = u
}
