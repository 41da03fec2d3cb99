package mattermost

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// client is an Adapter for token on the test server, not running: Delete and MemberOf need no
// websocket.
func (s *testServer) client(t *testing.T, token string) *Adapter {
	t.Helper()
	a, err := New(Config{URL: s.URL, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestE2EDeleteSomeoneElsesPost(t *testing.T) {
	s := realServer(t)
	ch := s.Channel(t, "delete")
	ctx := context.Background()
	n := nonce()
	secret := s.Alice.Say(t, ch.Id, "", "@eos create grafana --admin-password hunter2 "+n)
	reply := s.Bob.Say(t, ch.Id, secret.Id, "a reply in its thread "+n)
	ref := adapters.PostRef{Platform: platform, Channel: ch.Id, ID: secret.Id}

	// otherbot is a plain team member: the server refuses, and the post stays.
	err := s.client(t, s.OtherBotToken).Delete(ctx, ref)
	if !errors.Is(err, adapters.ErrNotPermitted) || !strings.Contains(err.Error(), "needs delete_others_posts") {
		t.Fatalf("Delete by otherbot = %v, want ErrNotPermitted naming delete_others_posts", err)
	}
	if p, _, err := s.Alice.Client.GetPost(ctx, secret.Id, ""); err != nil || p.DeleteAt != 0 {
		t.Fatalf("after a refused delete alice reads the post as %+v, %v", p, err)
	}

	// eos is a team admin.
	if err := s.client(t, s.BotToken).Delete(ctx, ref); err != nil {
		t.Fatalf("Delete by eos: %v", err)
	}
	for _, id := range []string{secret.Id, reply.Id} {
		_, resp, err := s.Alice.Client.GetPost(ctx, id, "")
		if err == nil || statusOf(resp) != 404 {
			t.Errorf("alice still reads post %s (status %d, err %v)", id, statusOf(resp), err)
		}
	}
	list, _, err := s.Alice.Client.GetPostsForChannel(ctx, ch.Id, 0, 60, "", false, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range list.Posts {
		if strings.Contains(p.Message, "hunter2") {
			t.Errorf("alice still sees %q in the channel", p.Message)
		}
	}

	if err := s.client(t, s.BotToken).Delete(ctx, adapters.PostRef{Channel: ch.Id, ID: model.NewId()}); err == nil {
		t.Error("deleting a post that does not exist succeeded")
	}
}

func TestE2EGroupsNeedALicense(t *testing.T) {
	s := realServer(t)
	_, err := s.client(t, s.BotToken).MemberOf(context.Background(), adapters.User{ID: s.Bob.User.Id, Name: "bob"}, "ops")
	if !errors.Is(err, adapters.ErrNotPermitted) || !strings.Contains(err.Error(), "license") {
		t.Fatalf("MemberOf on the unlicensed test server = %v, want ErrNotPermitted saying a license is needed", err)
	}
	t.Logf("the unlicensed server says: %v", err)
}
