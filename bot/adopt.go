package bot

import (
	"context"
	"fmt"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// adopt answers `adopt SERVICE`: the opposite of reconcile, for drift that was meant.
func (e *Engine) adopt(ctx context.Context, c conv, in *intents.Intent) {
	e.adoptService(ctx, c, e.envOf(in), in.Noun)
}

// adoptService proposes taking what runs as the declared state of service in env, for `adopt`
// and for a 📥 on a drift digest: an ordinary plan, previewed and approved like any other,
// whose run changes nothing real (Terraform applies a refresh-only plan, Nomad registers
// nothing) and records reality as declared. It returns the plan's id, or "" when none was
// stored.
func (e *Engine) adoptService(ctx context.Context, c conv, env, service string) string {
	d, err := e.st.Declared(env + "/" + service)
	if err != nil || d.Destroyed {
		e.say(ctx, c.a, c.m.Post, reply(fmt.Sprintf("%s has no declared state in %s: nothing to adopt. @eos status", service, env)))
		return ""
	}
	if busy := e.busy(store.SpecKeys(d.Spec)); busy != "" {
		e.say(ctx, c.a, c.m.Post, reply(busy))
		return ""
	}
	actx, cancel := context.WithTimeout(ctx, planTimeout)
	defer cancel()
	spec, err := e.cfg.Runner.Adopt(actx, d.Spec)
	if err != nil {
		e.say(ctx, c.a, c.m.Post, reply(fmt.Sprintf("Can't adopt %s in %s as it runs: %s. Nothing planned.", service, env, err)))
		return ""
	}
	return e.propose(ctx, c, spec, store.PlanPending)
}
