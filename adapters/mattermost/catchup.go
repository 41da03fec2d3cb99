package mattermost

import (
	"context"
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// catchUp delivers the posts written while the websocket was down: on each connection it
// reads every served channel since the newest post heard before (or since Run started).
// Reactions given meanwhile are not replayed (the engine reads them with Reactions at
// start-up and on demand).
func (a *Adapter) catchUp(ctx context.Context, h adapters.Handler, self *model.User) {
	a.mu.Lock()
	since, served := a.lastSeen, a.served
	a.mu.Unlock()
	if since == 0 {
		return
	}
	channels := served
	if channels == nil {
		var err error
		if channels, err = a.memberChannels(ctx, self.Id); err != nil {
			a.log.Warn("catch-up after reconnecting skipped", "err", err)
			return
		}
	}
	var missed []*model.Post
	types := make(map[string]model.ChannelType, len(channels))
	for id, typ := range channels {
		list, _, err := a.api.GetPostsSince(ctx, id, since, false)
		if err != nil {
			a.log.Warn("catch-up after reconnecting incomplete", "channel", id, "err", err)
			continue
		}
		for _, p := range list.Posts {
			if p.CreateAt >= since {
				missed = append(missed, p)
				types[p.Id] = typ
			}
		}
	}
	slices.SortFunc(missed, func(x, y *model.Post) int { return int(x.CreateAt - y.CreateAt) })
	for _, p := range missed {
		if err := a.deliverPost(ctx, h, self, p, types[p.Id]); err != nil {
			a.log.Error("dropping missed post", "post", p.Id, "err", err)
		}
	}
	if len(missed) > 0 {
		a.log.Info("caught up after reconnecting", "posts", len(missed))
	}
}
