package mattermost

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/mattermost/mattermost/server/public/model"
)

// channelTexts is every message in channel, read as reader.
func channelTexts(t *testing.T, reader *model.Client4, channel string) []*model.Post {
	t.Helper()
	list, _, err := reader.GetPostsForChannel(context.Background(), channel, 0, 200, "", false, false)
	if err != nil {
		t.Fatalf("reading channel %s: %v", channel, err)
	}
	out := make([]*model.Post, 0, len(list.Order))
	for _, id := range list.Order {
		out = append(out, list.Posts[id])
	}
	return out
}

// A whisper arrives in the direct channel between the bot and the person, from the bot, and
// not in the channel the person asked in.
func TestE2EWhisperGoesToTheDirectChannel(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	n := nonce()
	ch := s.Channel(t, "web")
	p := s.NewPerson(t, "w"+n, ch)
	a, err := New(s.config())
	if err != nil {
		t.Fatal(err)
	}
	asked := p.Say(t, ch.Id, "", "@eos web "+n)
	near := adapters.PostRef{Platform: platform, Channel: ch.Id, ID: asked.Id}
	secret := "sign in at http://127.0.0.1/link/" + n
	if err := a.Whisper(ctx, adapters.User{ID: p.User.Id, Name: p.User.Username}, near, adapters.NewDoc(adapters.Text{Text: secret})); err != nil {
		t.Fatal(err)
	}

	dm, _, err := p.Client.CreateDirectChannel(ctx, p.User.Id, s.Bot.Id)
	if err != nil {
		t.Fatal(err)
	}
	var found int
	for _, post := range channelTexts(t, p.Client, dm.Id) {
		if strings.Contains(post.Message, secret) {
			found++
			if post.UserId != s.Bot.Id {
				t.Errorf("the whisper in the direct channel is from %s, want the bot %s", post.UserId, s.Bot.Id)
			}
		}
	}
	if found != 1 {
		t.Errorf("the direct channel holds the whisper %d times, want once", found)
	}
	for _, other := range []string{ch.Id, s.Infra.Id} {
		for _, post := range channelTexts(t, s.Admin, other) {
			if strings.Contains(post.Message, secret) {
				t.Errorf("channel %s holds the whisper %q", other, post.Message)
			}
		}
	}
	if err := a.Whisper(ctx, adapters.User{Name: "nobody"}, near, adapters.NewDoc(adapters.Text{Text: "x"})); err == nil {
		t.Error("a whisper to a user without an id was sent")
	}
}

// privateChannel creates a private channel with the bot and members.
func privateChannel(t *testing.T, s *testServer, members ...*model.User) *model.Channel {
	t.Helper()
	ctx := context.Background()
	name := "private-" + nonce()
	ch, _, err := s.Admin.CreateChannel(ctx, &model.Channel{TeamId: s.Team.Id, Name: name, DisplayName: name, Type: model.ChannelTypePrivate})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range append([]*model.User{s.Bot}, members...) {
		if _, _, err := s.Admin.AddChannelMember(ctx, ch.Id, u.Id); err != nil {
			t.Fatalf("adding %s to %s: %v", u.Username, name, err)
		}
	}
	return ch
}

// CanView follows the server: members of a private channel or a direct message read it and
// no one else does; anyone active in the team reads a public channel, until removed from the
// team; a deactivated account reads nothing.
func TestE2ECanView(t *testing.T) {
	s := realServer(t)
	ctx := context.Background()
	n := nonce()
	public := s.Channel(t, "view")
	member := s.NewPerson(t, "m"+n)
	outsider := s.NewPerson(t, "o"+n)
	leaver := s.NewPerson(t, "l"+n)
	quitter := s.NewPerson(t, "q"+n)
	private := privateChannel(t, s, member.User, quitter.User)
	dm, _, err := member.Client.CreateDirectChannel(ctx, member.User.Id, s.Bot.Id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Admin.RemoveTeamMember(ctx, s.Team.Id, leaver.User.Id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Admin.UpdateUserActive(ctx, quitter.User.Id, false); err != nil {
		t.Fatal(err)
	}
	a, err := New(s.config())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what    string
		who     *mmtest.Person
		channel string
		want    bool
	}{
		{"a member of a private channel", member, private.Id, true},
		{"a team member outside a private channel", outsider, private.Id, false},
		{"a deactivated member of a private channel", quitter, private.Id, false},
		{"a team member, public channel they never joined", outsider, public.Id, true},
		{"a team member, public channel they joined", member, public.Id, true},
		{"someone removed from the team", leaver, public.Id, false},
		{"someone removed from the team, channel they had joined", leaver, s.Infra.Id, false},
		{"a deactivated team member", quitter, public.Id, false},
		{"one side of a direct message", member, dm.Id, true},
		{"someone else, direct message", outsider, dm.Id, false},
	} {
		got, err := a.CanView(ctx, adapters.User{ID: tc.who.User.Id, Name: tc.who.User.Username}, tc.channel)
		if err != nil || got != tc.want {
			t.Errorf("%s: CanView = %v, %v; want %v", tc.what, got, err, tc.want)
		}
	}
	if got, err := a.CanView(ctx, adapters.User{ID: member.User.Id}, model.NewId()); err == nil || got {
		t.Errorf("CanView of a channel that does not exist = %v, %v; want an error", got, err)
	}
}
