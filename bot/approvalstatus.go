package bot

import (
	"context"
	"fmt"
	"github.com/eosbot/eos/bot/render"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// The preview of a plan that may run closes with two lines: the rule it is judged by, named
// ("Needs 2 approvals from @bob, @dave or group:sre — not @alice (asked) · expires 14:32 UTC"),
// and its approval status. The engine edits the status line in place at every change of state
// (an approval counted or withdrawn, a rejection, expiry, cancellation, the run starting, the
// run ending), on platforms with adapters.Editor; the rest of the preview stays as it was
// posted. Elsewhere, or when the edit fails, the thread replies say it instead.

// approvalLines are the rule and the status line of p's preview.
func approvalLines(p *store.Plan, j judgement) []string {
	return []string{
		fmt.Sprintf("%s · expires %s", j.need(p.Requester.Name), p.Expires.UTC().Format("15:04 UTC")),
		approvalStatus(p, j.verdict),
	}
}

// approvalStatus is the status line: what the plan waits for under the policy in force now
// (v), or how it ended.
func approvalStatus(p *store.Plan, v Verdict) string {
	react := fmt.Sprintf("React ✅ to approve, ❌ to reject · details: @eos plan %s full", p.ID)
	switch p.State {
	case store.PlanPending:
		var parts []string
		if len(p.Approvals) > 0 || !v.Single() {
			parts = append(parts, progress(v))
		}
		if len(v.Discounted) > 0 {
			parts = append(parts, discountedText(v))
		}
		return strings.Join(append(parts, react), " · ")
	case store.PlanApproved:
		if p.Outcome != nil {
			return fmt.Sprintf("approved by %s · run %s %s", votes(p.Approvals, "✅"), p.ID, outcomeWords(*p.Outcome))
		}
		if p.Held != nil && p.RunStarted.IsZero() {
			return fmt.Sprintf("approved by %s · the approval is kept: run %s starts when there is space (%s)", votes(p.Approvals, "✅"), p.ID, p.Held.Reason)
		}
		return fmt.Sprintf("approved by %s: running as run %s", votes(p.Approvals, "✅"), p.ID)
	case store.PlanRejected:
		by := "someone"
		if p.Rejection != nil {
			by = votes([]store.Vote{*p.Rejection}, "❌")
		}
		return "rejected by " + by + " · nothing changed"
	case store.PlanExpired:
		return fmt.Sprintf("expired at %s without the approvals it needs · nothing changed; ask again for a fresh plan", p.Expires.UTC().Format("15:04 UTC"))
	case store.PlanCancelled:
		return cancelledStatus(p.Cancellation) + " · nothing changed"
	case store.PlanBlocked:
		return blockedNote(p)
	case store.PlanSuperseded:
		return "superseded: things changed after the approval, so nothing was applied · the plan as it stands now is posted below for approval"
	}
	return string(p.State)
}

// outcomeWords say how a run ended in the words of its result post: "done", "failed (rolled
// back)", "outcome unknown (nothing rolled back)", "stopped", "interrupted".
func outcomeWords(o store.Outcome) string {
	switch {
	case o.State == store.RunFailed && o.Unknown:
		return "outcome unknown (nothing rolled back)"
	case o.State == store.RunFailed && o.RolledBack:
		return "failed (rolled back)"
	}
	return string(o.State)
}

func cancelledStatus(c *store.Cancellation) string {
	switch {
	case c == nil:
		return "cancelled"
	case c.By != nil:
		return "cancelled by @" + c.By.User
	}
	return "cancelled: " + c.Reason
}

// votes names voters with their mark: "@bob ✅ @dave ✅".
func votes(vs []store.Vote, mark string) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = "@" + v.User + " " + mark
	}
	return strings.Join(out, " ")
}

// howMany is "one more" or "3 more".
func howMany(n int) string {
	if n == 1 {
		return "one more"
	}
	return fmt.Sprintf("%d more", n)
}

// showStatus edits the preview of plan id to show the plan as the store has it now. It
// reports whether the preview shows it; when not (a platform without Editor, a preview that is
// gone, an edit that failed, a replica that does not lead) the caller says it in the thread.
// Edits are made one at a time, each from the state read under the lock, so the last edit
// always shows the latest state, whichever change came first.
func (e *Engine) showStatus(ctx context.Context, id string) bool {
	if e.leading() != nil {
		return false
	}
	e.statusMu.Lock()
	defer e.statusMu.Unlock()
	p, err := e.st.Plan(id)
	if err != nil || p.Preview.ID == "" || p.State == store.PlanPreview {
		return false
	}
	a, ok := e.adapter(p.Preview.Platform)
	if !ok {
		return false
	}
	ed, ok := a.(adapters.Editor)
	if !ok {
		return false
	}
	// Only a waiting plan's status line weighs its approvals; the rest say how the plan ended,
	// so no approver need be asked of the platform again for them.
	j := e.unjudged(p)
	if p.State == store.PlanPending {
		j = e.judge(ctx, a, p)
	}
	doc := e.planLinked(editedPreview(p, j, render.VaultRow(p.Plan, e.cfg.Runner.SecretsConfigured())), p.ID)
	if err := ed.Edit(ctx, p.Preview, doc); err != nil {
		e.log.Warn("editing the preview's approval status", "plan", id, "state", p.State, "err", err)
		return false
	}
	return true
}

// editedPreview is p's preview as showStatus edits it: the rules in force now with the
// approvals they count (the same judgement reactions are decided by), and no attachment,
// which went with the post when it was made and an edit would attach again.
func editedPreview(p *store.Plan, j judgement, vaultRow string) adapters.Doc {
	doc := previewDoc(p, j, vaultRow)
	doc.Attachment = nil
	return doc
}
