package mattermost

import (
	"context"
	"fmt"
	"strings"

	"github.com/mattermost/mattermost/server/public/model"
)

// parseChannel splits a Config.Channels entry into a team and channel name, or returns it as
// a channel id.
func parseChannel(s string) (team, name string, err error) {
	if t, n, ok := strings.Cut(s, "/"); ok {
		if t == "" || n == "" || strings.Contains(n, "/") {
			return "", "", fmt.Errorf("channel %q must be team/channel or a channel id", s)
		}
		return t, n, nil
	}
	if !model.IsValidId(s) {
		return "", "", fmt.Errorf("channel %q must be team/channel or a channel id", s)
	}
	return "", s, nil
}

// resolveChannels turns Config.Channels into channel ids with their types. A channel that does
// not exist or that the bot cannot see is a configError.
func (a *Adapter) resolveChannels(ctx context.Context) (map[string]model.ChannelType, error) {
	out := make(map[string]model.ChannelType, len(a.cfg.Channels))
	for _, entry := range a.cfg.Channels {
		team, name, _ := parseChannel(entry)
		var (
			ch   *model.Channel
			resp *model.Response
			err  error
		)
		if team != "" {
			ch, resp, err = a.api.GetChannelByNameForTeamName(ctx, name, team, "")
		} else {
			ch, resp, err = a.api.GetChannel(ctx, name, "")
		}
		if err != nil {
			err = fmt.Errorf("finding channel %q: %w", entry, err)
			if s := statusOf(resp); s == 403 || s == 404 {
				return nil, &configError{err}
			}
			return nil, err
		}
		out[ch.Id] = ch.Type
	}
	return out, nil
}

// serves reports whether the bot answers in channel id.
func (a *Adapter) serves(channel string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.served == nil {
		return true
	}
	_, ok := a.served[channel]
	return ok
}

// memberChannels lists every channel the bot belongs to, direct messages included, for the
// catch-up after a reconnection when Config.Channels is empty.
func (a *Adapter) memberChannels(ctx context.Context, self string) (map[string]model.ChannelType, error) {
	teams, _, err := a.api.GetTeamsForUser(ctx, self, "")
	if err != nil {
		return nil, fmt.Errorf("listing the bot's teams: %w", err)
	}
	out := make(map[string]model.ChannelType)
	for _, t := range teams {
		chans, _, err := a.api.GetChannelsForTeamForUser(ctx, t.Id, self, false, "")
		if err != nil {
			return nil, fmt.Errorf("listing the bot's channels in team %s: %w", t.Name, err)
		}
		for _, c := range chans {
			out[c.Id] = c.Type
		}
	}
	return out, nil
}
