package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// why answers `why PLAN-ID`: the rule the plan is judged by, who approved it, whose reactions
// did not count and why (from the audit log's refusals), and what it still needs.
func (e *Engine) why(ctx context.Context, c conv, in *intents.Intent) {
	p, err := e.st.Plan(in.Noun)
	if err != nil || !e.sees(c, p) {
		e.say(ctx, c.adapter, c.msg.Post, reply(fmt.Sprintf("There is no plan %s. Plans are named in their preview, like \"Plan 7f3a9c21\".", in.Noun)))
		return
	}
	spec := p.Plan.Spec
	j := e.judge(ctx, c.adapter, p)
	lines := []string{fmt.Sprintf("Plan %s · %s · asked by @%s · %s", p.ID, requestLine(spec), p.Requester.Name, p.State),
		"Rule: " + j.need(p.Requester.Name) + "."}
	lines = append(lines, codeWhy(j.code)...) // policyrender.go
	if j.code.sha == "" && closed(p) {
		lines = append(lines, e.codeRecorded(p.ID)...)
	}
	var approvers []string
	for _, v := range p.Approvals {
		approvers = append(approvers, "@"+v.User+" at "+v.At.UTC().Format("15:04 UTC"))
	}
	if len(approvers) > 0 {
		lines = append(lines, fmt.Sprintf("Approved by %s (%s).", strings.Join(approvers, ", "), tally(j.verdict)))
	} else {
		lines = append(lines, fmt.Sprintf("No approval counts yet (%s).", tally(j.verdict)))
	}
	if len(j.verdict.Discounted) > 0 {
		lines = append(lines, discountedText(j.verdict)+".")
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
	case p.State == store.PlanBlocked:
		lines = append(lines, "It cannot be approved: it would fail.\n"+strings.Join(p.Plan.Failures(), "\n"))
	case p.State == store.PlanPending && j.code.denied():
		lines = append(lines, "It cannot be approved: the policy denies it.")
	case p.State == store.PlanPending:
		n := j.verdict.Needed()
		lines = append(lines, fmt.Sprintf("Still needed: %d more approval%s before %s.", n, plural(n), p.Expires.UTC().Format("15:04 UTC")))
	}
	if run, err := e.st.Run(p.ID); err == nil {
		lines = append(lines, runOutcome(run))
	}
	blocks := []adapters.Block{adapters.Text{Text: strings.Join(lines, "\n")}}
	if len(items) > 0 {
		blocks = append(blocks, adapters.Text{Text: "Reactions that did not count:"}, adapters.List{Items: items})
	}
	e.say(ctx, c.adapter, c.msg.Post, adapters.NewDoc(blocks...))
}

// runOutcome says how plan's run went, for `why`: running, or how it ended and, when it did not
// succeed, how each layer ended ("Run 7f3a9c21 failed at 14:05 UTC: Terraform ❌ eoslab_server.main:
// … · Nomad ⏸").
func runOutcome(r *store.Run) string {
	if r.Finished.IsZero() {
		return fmt.Sprintf("Run %s is %s since %s.", r.ID, r.State, r.Started.UTC().Format("15:04 UTC"))
	}
	state := string(r.State)
	if unknownLayer(r) != nil {
		state = "ended with its outcome unknown"
	}
	s := fmt.Sprintf("Run %s %s at %s", r.ID, state, r.Finished.UTC().Format("15:04 UTC"))
	if r.State == store.RunDone || len(r.Layers) == 0 {
		return s + "."
	}
	parts := make([]string, len(r.Layers))
	var rollback string
	for i, l := range r.Layers {
		parts[i] = resultLine(l)
		if l.Rollback != "" && (l.Status == executor.ResultFailed || l.Status == executor.ResultRolledBack) {
			rollback = l.Rollback // whole: the run's post may have cut it
		}
	}
	s += ": " + strings.Join(parts, " · ")
	if rollback != "" {
		s += "\nRolled back: " + rollback
	}
	if u := unknownLayer(r); u != nil && u.Check != "" {
		s += "\nNothing was rolled back. Check how " + u.Layer.Title() + " ended with " + u.Check + "."
	}
	return s
}
