package mattermost

import (
	"context"
	"errors"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// viewAPI answers the calls of CanView from fixed data: channels by id, channel members as
// "channel/user", and a status for every membership question when fail is set.
type viewAPI struct {
	*fakeAPI
	channels map[string]*model.Channel
	members  map[string]bool
	fail     int
}

func (f *viewAPI) GetChannel(_ context.Context, id, _ string) (*model.Channel, *model.Response, error) {
	if ch, ok := f.channels[id]; ok {
		return ch, &model.Response{StatusCode: 200}, nil
	}
	return nil, &model.Response{StatusCode: 404}, errors.New("no such channel")
}

func (f *viewAPI) GetChannelMember(_ context.Context, channel, user, _ string) (*model.ChannelMember, *model.Response, error) {
	if f.fail != 0 {
		return nil, &model.Response{StatusCode: f.fail}, errors.New("server trouble")
	}
	if f.members[channel+"/"+user] {
		return &model.ChannelMember{ChannelId: channel, UserId: user}, &model.Response{StatusCode: 200}, nil
	}
	return nil, &model.Response{StatusCode: 404}, errors.New("not a member")
}

func (f *viewAPI) GetTeamMember(_ context.Context, team, user, _ string) (*model.TeamMember, *model.Response, error) {
	if f.fail != 0 {
		return nil, &model.Response{StatusCode: f.fail}, errors.New("server trouble")
	}
	return &model.TeamMember{TeamId: team, UserId: user}, &model.Response{StatusCode: 200}, nil
}

// A guest reads only the public channels they are a member of (the unlicensed test server has
// no guests), and a server that cannot answer is an error, never a yes.
func TestCanViewGuestsAndFailures(t *testing.T) {
	guest := &model.User{Id: model.NewId(), Username: "guest", Roles: model.SystemGuestRoleId}
	joined := &model.Channel{Id: model.NewId(), TeamId: "team", Type: model.ChannelTypeOpen}
	other := &model.Channel{Id: model.NewId(), TeamId: "team", Type: model.ChannelTypeOpen}
	private := &model.Channel{Id: model.NewId(), TeamId: "team", Type: model.ChannelTypePrivate}
	f := &viewAPI{fakeAPI: newFakeAPI(botUser, aliceUser, guest),
		channels: map[string]*model.Channel{joined.Id: joined, other.Id: other, private.Id: private},
		members:  map[string]bool{joined.Id + "/" + guest.Id: true}}
	a := fakeAdapter(t, f.fakeAPI)
	a.api = f
	ctx := context.Background()
	for _, tc := range []struct {
		who     *model.User
		channel string
		want    bool
	}{
		{guest, joined.Id, true},
		{guest, other.Id, false},
		{aliceUser, other.Id, true},
		{aliceUser, private.Id, false},
	} {
		if got, err := a.CanView(ctx, adapters.User{ID: tc.who.Id}, tc.channel); err != nil || got != tc.want {
			t.Errorf("CanView(%s, %s) = %v, %v; want %v", tc.who.Username, tc.channel, got, err, tc.want)
		}
	}
	f.fail = 500
	for _, ch := range []string{other.Id, private.Id} {
		if got, err := a.CanView(ctx, adapters.User{ID: aliceUser.Id}, ch); err == nil || got {
			t.Errorf("CanView with the server failing = %v, %v; want an error", got, err)
		}
	}
	if got, err := a.CanView(ctx, adapters.User{ID: model.NewId()}, other.Id); err == nil || got {
		t.Errorf("CanView of an unknown user = %v, %v; want an error", got, err)
	}
}
