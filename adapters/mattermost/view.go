package mattermost

import (
	"context"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// CanView reports whether user may read channel now, asking the server each time (the status
// page must not show a channel to someone removed from it a minute ago):
//
//   - a deactivated account reads nothing;
//   - a private channel, a direct or a group message only its members read;
//   - a public channel every active member of its team reads, except guests, who read only
//     the channels they are members of.
//
// Every answer the server gives other than these is returned as an error, which the engine
// counts as "no". The bot must be able to see the channel (be a member of a private one).
func (a *Adapter) CanView(ctx context.Context, user adapters.User, channel string) (bool, error) {
	u, _, err := a.api.GetUser(ctx, user.ID, "")
	if err != nil {
		return false, fmt.Errorf("mattermost: can %s view %s: looking up the user: %w", user.ID, channel, err)
	}
	if u.DeleteAt != 0 {
		return false, nil
	}
	ch, _, err := a.api.GetChannel(ctx, channel, "")
	if err != nil {
		return false, fmt.Errorf("mattermost: can %s view %s: reading the channel: %w", user.ID, channel, err)
	}
	switch {
	case ch.Type == model.ChannelTypeOpen && !u.IsGuest():
		return a.teamMember(ctx, ch.TeamId, u.Id)
	case ch.Type == model.ChannelTypeOpen, ch.Type == model.ChannelTypePrivate,
		ch.Type == model.ChannelTypeDirect, ch.Type == model.ChannelTypeGroup:
		return a.channelMember(ctx, ch.Id, u.Id)
	}
	return false, fmt.Errorf("mattermost: can %s view %s: unknown channel type %q", user.ID, channel, ch.Type)
}

// channelMember reports whether user is a member of channel.
func (a *Adapter) channelMember(ctx context.Context, channel, user string) (bool, error) {
	_, resp, err := a.api.GetChannelMember(ctx, channel, user, "")
	switch {
	case err == nil:
		return true, nil
	case statusOf(resp) == 404:
		return false, nil
	}
	return false, fmt.Errorf("mattermost: is %s a member of channel %s: %w", user, channel, err)
}

// teamMember reports whether user is a member of team now (a member who left or was removed
// is kept with DeleteAt set).
func (a *Adapter) teamMember(ctx context.Context, team, user string) (bool, error) {
	m, resp, err := a.api.GetTeamMember(ctx, team, user, "")
	switch {
	case err == nil:
		return m.DeleteAt == 0, nil
	case statusOf(resp) == 404:
		return false, nil
	}
	return false, fmt.Errorf("mattermost: is %s a member of team %s: %w", user, team, err)
}
