package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// why answers `why PLAN-ID`: the rule the plan is judged by, who approved it, whose reactions
// did not count and why (from the audit log's refusals), and what it still needs.
func (e *Engine) why(ctx context.Context, c conv, in *intents.Intent) {
	p, err := e.st.Plan(in.Noun)
	if err != nil || !e.sees(c, p) {
		e.say(ctx, c.a, c.m.Post, reply(fmt.Sprintf("There is no plan %s. Plans are named in their preview, like \"Plan 7f3a9c21\".", in.Noun)))
		return
	}
	spec := p.Plan.Spec
	ep := e.cfg.Policy.ForPlan(p.Plan)
	lines := []string{fmt.Sprintf("Plan %s · %s · asked by @%s · %s", p.ID, requestLine(spec), p.Requester.Name, p.State),
		"Rule: " + ep.Needs(p.Requester.Name) + "."}
	var approvers []string
	for _, v := range p.Approvals {
		approvers = append(approvers, "@"+v.User+" at "+v.At.UTC().Format("15:04 UTC"))
	}
	if len(approvers) > 0 {
		lines = append(lines, fmt.Sprintf("Approved by %s (%d of %d).", strings.Join(approvers, ", "), len(p.Approvals), p.Needed))
	} else {
		lines = append(lines, fmt.Sprintf("No approval counts yet (0 of %d).", p.Needed))
	}
	if p.Rejection != nil {
		lines = append(lines, fmt.Sprintf("Rejected by @%s at %s.", p.Rejection.User, p.Rejection.At.UTC().Format("15:04 UTC")))
	}
	refusals, err := e.st.Audit(func(en *store.Entry) bool { return en.PlanID == p.ID && en.Kind == "refusal" })
	if err != nil {
		e.log.Error("reading the audit log", "plan", p.ID, "err", err)
	}
	var items []string
	for _, r := range refusals {
		items = append(items, r.At.UTC().Format("15:04 UTC")+" "+r.Text)
	}
	switch {
	case p.State == store.PlanPending && e.now().After(p.Expires):
		lines = append(lines, fmt.Sprintf("It expired at %s: ask again for a fresh plan.", p.Expires.UTC().Format("15:04 UTC")))
	case p.State == store.PlanPending:
		lines = append(lines, fmt.Sprintf("Still needed: %d more approval%s before %s.", p.Needed-len(p.Approvals), plural(p.Needed-len(p.Approvals)),
			p.Expires.UTC().Format("15:04 UTC")))
	}
	blocks := []adapters.Block{adapters.Text{Text: strings.Join(lines, "\n")}}
	if len(items) > 0 {
		blocks = append(blocks, adapters.Text{Text: "Reactions that did not count:"}, adapters.List{Items: items})
	}
	e.say(ctx, c.a, c.m.Post, adapters.NewDoc(blocks...))
}
