package bot

import (
	"context"
	"slices"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// waitingOn adds to msg, a refused request's answer (`update grafana`: not deployed yet), the
// pending plans on the same service and environment the asker may see, oldest first: the
// refusal is often only because one of them has not run yet, and "to deploy it: @eos create
// grafana" would otherwise send them to ask for a second one beside it.
func (e *Engine) waitingOn(ctx context.Context, c conv, msg, env, service string) string {
	plans, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool {
		return p.State == store.PlanPending && p.Plan.Spec.Env == env && e.sees(c, p) &&
			slices.ContainsFunc(p.Plan.Spec.Units, func(u executor.Unit) bool { return u.Service == service })
	})
	if err != nil {
		return msg
	}
	return render.WaitingOn(msg, plans)
}
