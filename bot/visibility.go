package bot

import (
	"context"
	"slices"

	"github.com/eosbot/eos/bot/store"
)

// ops reports whether c comes from one of Config.OpsChannels, which see the plans and runs
// of every channel.
func (e *Engine) ops(c conv) bool {
	return slices.Contains(e.cfg.OpsChannels, c.adapter.Name()+":"+c.msg.Post.Channel)
}

// sees reports whether a conversation may see or act on plan p: plans stay in the platform
// and channel where they were asked (a private channel's infrastructure is not readable from a
// public one), except from an ops channel. The preview's channel counts as the request's: on
// Discord a thread is a channel of its own, opened from the request's.
func (e *Engine) sees(c conv, p *store.Plan) bool {
	if p == nil {
		return false
	}
	if e.ops(c) {
		return true
	}
	ch := c.msg.Post.Channel
	return p.Request.Platform == c.adapter.Name() && (ch == p.Request.Channel || p.Preview.ID != "" && ch == p.Preview.Channel)
}

// seesPlanID is sees for a plan or run id (a run's id is its plan's); an id that names no plan
// is not seen.
func (e *Engine) seesPlanID(ctx context.Context, c conv, id string) bool {
	if e.ops(c) {
		return true
	}
	p, err := e.st.Plan(ctx, id)
	return err == nil && e.sees(c, p)
}
