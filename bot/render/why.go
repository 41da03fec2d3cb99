package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// WhyFacts is what `why PLAN-ID` says about a plan, as the engine gathered it.
type WhyFacts struct {
	Plan      *store.Plan
	Judgement Judgement
	// Recorded are the policy decisions the audit log recorded when the plan was judged
	// (store entries of kind "policy"), said when the plan ended and no set decides now.
	Recorded []store.Entry
	// Refusals are the audit log's refusals of reactions on the plan.
	Refusals []store.Entry
	// Expired is true for a pending plan past its expiry.
	Expired bool
	// Run is the plan's run, nil when it has none.
	Run *store.Run
}

// Why answers `why PLAN-ID`: the rule the plan is judged by, who approved it, whose reactions
// did not count and why (from the audit log's refusals), and what it still needs.
func Why(f WhyFacts) adapters.Doc {
	p, j := f.Plan, f.Judgement
	lines := []string{fmt.Sprintf("Plan %s · %s · asked by @%s · %s", p.ID, RequestLine(p.Plan.Spec), p.Requester.Name, p.State),
		"Rule: " + j.Need(p.Requester.Name) + "."}
	lines = append(lines, codeWhy(j.Code)...)
	lines = append(lines, codeRecorded(f.Recorded)...)
	var approvers []string
	for _, v := range p.Approvals {
		approvers = append(approvers, "@"+v.User+" at "+v.At.UTC().Format("15:04 UTC"))
	}
	if len(approvers) > 0 {
		lines = append(lines, fmt.Sprintf("Approved by %s (%s).", strings.Join(approvers, ", "), tally(j.Verdict)))
	} else {
		lines = append(lines, fmt.Sprintf("No approval counts yet (%s).", tally(j.Verdict)))
	}
	if len(j.Verdict.Discounted) > 0 {
		lines = append(lines, DiscountedText(j.Verdict)+".")
	}
	if p.Rejection != nil {
		lines = append(lines, fmt.Sprintf("Rejected by @%s at %s.", p.Rejection.User, p.Rejection.At.UTC().Format("15:04 UTC")))
	}
	var items []string
	for _, r := range f.Refusals {
		items = append(items, r.At.UTC().Format("15:04 UTC")+" "+r.Text)
	}
	switch {
	case p.State == store.PlanPending && f.Expired:
		lines = append(lines, fmt.Sprintf("It expired at %s: ask again for a fresh plan.", p.Expires.UTC().Format("15:04 UTC")))
	case p.State == store.PlanBlocked:
		lines = append(lines, "It cannot be approved: it would fail.\n"+strings.Join(p.Plan.Failures(), "\n"))
	case p.State == store.PlanPending && j.Code.Denied():
		lines = append(lines, "It cannot be approved: the policy denies it.")
	case p.State == store.PlanPending:
		n := j.Verdict.Needed()
		lines = append(lines, fmt.Sprintf("Still needed: %d more approval%s before %s.", n, Plural(n), p.Expires.UTC().Format("15:04 UTC")))
	}
	if f.Run != nil {
		lines = append(lines, runOutcome(f.Run))
	}
	blocks := []adapters.Block{adapters.Text{Text: strings.Join(lines, "\n")}}
	if len(items) > 0 {
		blocks = append(blocks, adapters.Text{Text: "Reactions that did not count:"}, adapters.List{Items: items})
	}
	return adapters.NewDoc(blocks...)
}

// codeRecorded are `why`'s lines on a plan that ended: the decisions the audit log recorded
// when it was judged, with the set that made them.
func codeRecorded(entries []store.Entry) []string {
	if len(entries) == 0 {
		return nil
	}
	lines := []string{"The policy decided, when it judged this plan:"}
	for _, en := range entries {
		lines = append(lines, "· "+en.At.UTC().Format("15:04 UTC")+" "+en.Text)
	}
	return lines
}

// runOutcome says how plan's run went, for `why`: running, or how it ended and, when it did not
// succeed, how each layer ended ("Run 7f3a9c21 failed at 14:05 UTC: Terraform ❌ eoslab_server.main:
// … · Nomad ⏸").
func runOutcome(r *store.Run) string {
	if r.Finished.IsZero() {
		return fmt.Sprintf("Run %s is %s since %s.", r.ID, r.State, r.Started.UTC().Format("15:04 UTC"))
	}
	state := string(r.State)
	if UnknownLayer(r) != nil {
		state = "ended with its outcome unknown"
	}
	s := fmt.Sprintf("Run %s %s at %s", r.ID, state, r.Finished.UTC().Format("15:04 UTC"))
	if r.State == store.RunDone || len(r.Layers) == 0 {
		return s + "."
	}
	parts := make([]string, len(r.Layers))
	var rollback string
	for i, l := range r.Layers {
		parts[i] = ResultLine(l)
		if l.Rollback != "" && (l.Status == executor.ResultFailed || l.Status == executor.ResultRolledBack) {
			rollback = l.Rollback // whole: the run's post may have cut it
		}
	}
	s += ": " + strings.Join(parts, " · ")
	if rollback != "" {
		s += "\nRolled back: " + rollback
	}
	if u := UnknownLayer(r); u != nil && u.Check != "" {
		s += "\nNothing was rolled back. Check how " + u.Layer.Title() + " ended with " + u.Check + "."
	}
	return s
}
