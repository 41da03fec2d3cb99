package bot

import (
	"context"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// why answers `why [PLAN-ID]` (without one, about the plan of its thread: threadplan.go): the
// rule the plan is judged by, who approved it, whose reactions did not count and why (from
// the audit log's refusals), and what it still needs.
func (e *Engine) why(ctx context.Context, c conv, in *intents.Intent) answer {
	if in.Noun == "" {
		p := e.threadPlan(ctx, c)
		if p == nil {
			open, _ := e.st.OpenPlans(ctx, func(p *store.Plan) bool { return e.sees(c, p) })
			return said(render.WhyWhichPlan(open))
		}
		in.Noun = p.ID
	}
	p, err := e.st.Plan(ctx, in.Noun)
	if err != nil || !e.sees(c, p) {
		return said(render.NoPlanNamed(in.Noun))
	}
	j := e.judge(ctx, c.adapter, p)
	f := render.WhyFacts{Plan: p, Judgement: j.view(), Expired: e.now().After(p.Expires)}
	if j.code.sha == "" && closed(p) {
		f.Recorded, _ = e.st.Audit(ctx, func(en *store.Entry) bool { return en.PlanID == p.ID && en.Kind == "policy" })
	}
	refusals, err := e.st.Audit(ctx, func(en *store.Entry) bool { return en.PlanID == p.ID && en.Kind == "refusal" })
	if err != nil {
		e.log.Error("reading the audit log", "plan", p.ID, "err", err)
	}
	f.Refusals = refusals
	if run, err := e.st.Run(ctx, p.ID); err == nil {
		f.Run = run
	}
	return said(render.Why(f))
}
