package bot

import (
	"context"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// threadPlan is the plan a command said without a plan id is about: said in a thread whose
// root is a request, that request's latest plan (an edited request's newest); said in a
// thread that is a channel of its own (Discord's, started from the request), the one open
// plan whose preview is there. Nil outside a thread, in a thread no request started, in one
// that holds the previews of several open plans, or when the asker may not see the plan.
//
// People answer a preview in its thread: `@eos why` or `@eos cancel` there means that plan,
// and making them copy its id from the preview is a step nobody expects.
func (e *Engine) threadPlan(ctx context.Context, c conv) *store.Plan {
	post := c.msg.Post
	if post.Thread == "" {
		return nil
	}
	plans, err := e.st.PlansByRequest(ctx, adapters.PostRef{Platform: post.Platform, Channel: post.Channel, ID: post.Thread})
	if err == nil && len(plans) == 0 {
		plans, err = e.st.OpenPlans(ctx, func(p *store.Plan) bool {
			return p.Preview.Platform == post.Platform && p.Preview.Channel == post.Channel && p.Preview.Thread == post.Thread
		})
		if len(plans) > 1 {
			// Several previews in one thread (a drift digest's reconcile plans): which one is
			// meant is the asker's to say, as cancelling the latest could end the wrong plan.
			return nil
		}
	}
	if err != nil || len(plans) == 0 {
		return nil
	}
	if p := plans[len(plans)-1]; e.sees(c, p) {
		return p
	}
	return nil
}
