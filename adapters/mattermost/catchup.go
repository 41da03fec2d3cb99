package mattermost

import (
	"context"
	"slices"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// catchUp delivers the posts written while the websocket was down: on each connection it
// reads every served channel since the newest post heard before (or since Run started), or,
// the first time it reads a channel, since the channel's stored cursor (Config.Cursors).
// Reactions added meanwhile are delivered too (the server lists a post whose reactions
// changed, with its reactions); the engine treats a reaction it already counted as a no-op.
// Reactions removed during the gap are not seen. A handler that is an adapters.ChangeHandler
// also hears of the people's posts edited or deleted meanwhile (catchupchanges.go). Once
// everything is delivered, each channel's cursor moves to the newest post, change or reaction
// delivered from it.
func (a *Adapter) catchUp(ctx context.Context, h adapters.Handler, self *model.User) {
	a.mu.Lock()
	last, served := a.lastSeen, a.served
	a.mu.Unlock()
	if last == 0 {
		return
	}
	// Look a little further back than the newest post heard: a post whose CreateAt the server
	// stamped just before that moment (clocks, scheduling) would otherwise fall in the gap.
	// Posts already delivered are skipped (a.recent) and repeated reactions change nothing.
	last -= catchUpMargin.Milliseconds()
	channels := served
	if channels == nil {
		var err error
		if channels, err = a.memberChannels(ctx, self.Id); err != nil {
			a.log.Warn("catch-up after reconnecting skipped", "err", err)
			return
		}
	}
	changes, _ := h.(adapters.ChangeHandler)
	var missed []*model.Post
	var changed []missedChange
	var reactions []missedReaction
	types := make(map[string]model.ChannelType, len(channels))
	for id, typ := range channels {
		since := a.cursors.start(ctx, id, last)
		list, _, err := a.api.GetPostsSince(ctx, id, since, false)
		if err != nil {
			a.log.Warn("catch-up after reconnecting incomplete", "channel", id, "err", err)
			continue
		}
		a.cursors.caughtUp(id)
		for _, p := range list.Posts {
			if p.CreateAt >= since {
				missed = append(missed, p)
				types[p.Id] = typ
			}
			if c, ok := missedChangeOf(p, since); ok && changes != nil {
				changed = append(changed, c)
			}
			if p.Metadata == nil {
				continue
			}
			for _, r := range p.Metadata.Reactions {
				if r.CreateAt >= since && r.UserId != self.Id {
					reactions = append(reactions, missedReaction{r: r, channel: id, thread: p.RootId})
				}
			}
		}
	}
	// Cursors move only after the last delivery: the posts go first, then the edits and
	// deletions, then the reactions, so a process stopped half-way must not leave a cursor past
	// a reaction it did not deliver. A change goes before every reaction of the gap, whichever
	// came first: an approval given while the request was being edited or deleted never runs
	// the plan of a request that now says something else (the engine cancels it first).
	newest := map[string]int64{}
	slices.SortFunc(missed, func(x, y *model.Post) int { return int(x.CreateAt - y.CreateAt) })
	for _, p := range missed {
		if err := a.deliverPost(ctx, h, self, p, types[p.Id]); err != nil {
			a.log.Error("dropping missed post", "post", p.Id, "err", err)
			continue
		}
		newest[p.ChannelId] = max(newest[p.ChannelId], p.CreateAt)
	}
	slices.SortFunc(changed, func(x, y missedChange) int { return int(x.at - y.at) })
	for _, c := range changed {
		if err := a.deliverChange(ctx, changes, self, c.post, c.deleted, c.at); err != nil {
			a.log.Error("dropping missed change", "post", c.post.Id, "err", err)
			continue
		}
		newest[c.post.ChannelId] = max(newest[c.post.ChannelId], c.at)
	}
	slices.SortFunc(reactions, func(x, y missedReaction) int { return int(x.r.CreateAt - y.r.CreateAt) })
	for _, m := range reactions {
		if err := a.deliverReaction(ctx, h, m.r, m.channel, m.thread, false); err != nil {
			a.log.Error("dropping missed reaction", "post", m.r.PostId, "err", err)
			continue
		}
		newest[m.channel] = max(newest[m.channel], m.r.CreateAt)
	}
	for channel, at := range newest {
		a.advance(ctx, channel, at)
	}
	if len(missed)+len(changed)+len(reactions) > 0 {
		a.log.Info("caught up after reconnecting", "posts", len(missed), "changes", len(changed), "reactions", len(reactions))
	}
}

// catchUpMargin is how much further back than the newest post heard a catch-up reads.
const catchUpMargin = 5 * time.Second

// missedReaction is a reaction added while the websocket was down.
type missedReaction struct {
	r       *model.Reaction
	channel string
	thread  string
}
