package bot

import (
	"context"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// threadPlan is the plan a command said without a plan id is about, when the thread it is
// said in names one plan: the latest plan of the request that started the thread (an edited
// request's newest, whatever its state; on Discord, whose thread is a channel of its own, the
// request it was started from), or, in a thread no request started (a drift digest's), the
// one open plan whose preview is there. Nil outside a thread, when the thread names no plan,
// when it holds the previews of other open plans too (a request asked inside another's
// thread, a digest's reconciles: which one is meant is the asker's to say, as cancelling the
// latest could end the wrong plan), or when the asker may not see the plan.
//
// People answer a preview in its thread: `@eos why`, `@eos plan full` or `@eos cancel` there
// means that plan, and making them copy its id from the preview is a step nobody expects.
func (e *Engine) threadPlan(ctx context.Context, c conv) *store.Plan {
	post := c.msg.Post
	if post.Thread == "" {
		return nil
	}
	var root *store.Plan
	asked, err := e.st.PlansByRequest(ctx, adapters.PostRef{Platform: post.Platform, Channel: post.Channel, ID: post.Thread})
	if err == nil && len(asked) == 0 && post.Channel == post.Thread {
		// A thread that is a channel of its own (Discord's) has the id of the request it was
		// started from, which is in the channel the thread belongs to.
		asked, err = e.st.PlansByRequestID(ctx, post.Platform, post.Thread)
	}
	if err != nil {
		return nil
	}
	if len(asked) > 0 {
		root = asked[len(asked)-1]
	}
	others, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool {
		return (root == nil || p.ID != root.ID) &&
			p.Preview.Platform == post.Platform && p.Preview.Channel == post.Channel && p.Preview.Thread == post.Thread
	})
	if err != nil {
		return nil
	}
	p := root
	switch {
	case root == nil && len(others) == 1:
		p = others[0]
	case len(others) > 0:
		return nil
	}
	if p == nil || !e.sees(c, p) {
		return nil
	}
	return p
}
