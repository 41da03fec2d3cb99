package console

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

func TestDeleteRedactsThePost(t *testing.T) {
	var out strings.Builder
	c := New(Config{Out: &out, User: "alice"})
	ctx := context.Background()
	secret := c.Say("@eos create grafana --admin-password hunter2")
	c.Post(ctx, "local", adapters.NewDoc(adapters.Text{Text: "after"}))
	if err := c.Delete(ctx, secret.Post); err != nil {
		t.Fatal(err)
	}
	posts := c.Posts()
	if len(posts) != 2 || posts[0].Text != RemovedText || !posts[0].Removed || posts[0].Author != "alice" || posts[1].Text != "after" {
		t.Fatalf("posts = %+v", posts)
	}
	if !strings.Contains(out.String(), "[1] alice: "+RemovedText+"\n") {
		t.Errorf("transcript does not show the removal:\n%s", out.String())
	}
	if strings.Contains(out.String(), "hunter2") {
		t.Errorf("transcript shows the secret (the post was not echoed, so it must not appear):\n%s", out.String())
	}
	if err := c.Delete(ctx, adapters.PostRef{ID: "9"}); err == nil {
		t.Error("deleting a missing post succeeded")
	}
}

func TestMemberOf(t *testing.T) {
	c := New(Config{Groups: map[string][]string{"ops": {"bob", "@carol"}, "empty": nil}})
	ctx := context.Background()
	for _, tc := range []struct {
		user, group string
		want        bool
		err         error
	}{
		{"bob", "ops", true, nil},
		{"carol", "@ops", true, nil},
		{"Carol", "ops", true, nil}, // one person, however the name is typed
		{"@bob", "ops", true, nil},
		{"bobby", "ops", false, nil},
		{"", "ops", false, nil},
		{"alice", "ops", false, nil},
		{"bob", "empty", false, nil},
		{"bob", "Ops", false, adapters.ErrNoSuchGroup},
		{"bob", "dba", false, adapters.ErrNoSuchGroup},
	} {
		got, err := c.MemberOf(ctx, user(tc.user), tc.group)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("MemberOf(%s, %s) = %t, %v; want %t, %v", tc.user, tc.group, got, err, tc.want, tc.err)
		}
	}
}
