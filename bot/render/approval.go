package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/store"
)

// The preview of a plan that may run closes with two lines: the rule it is judged by, named
// ("Needs 2 approvals from @bob, @dave or group:sre — not @alice (asked) · expires 14:32 UTC"),
// and its approval status. The engine edits the status line in place at every change of state
// (an approval counted or withdrawn, a rejection, expiry, cancellation, the run starting, the
// run ending), on platforms with adapters.Editor; the rest of the preview stays as it was
// posted. Elsewhere, or when the edit fails, the thread replies say it instead.

// approvalLines are the rule and the status line of p's preview.
func approvalLines(p *store.Plan, j Judgement) []string {
	return []string{
		fmt.Sprintf("%s · expires %s", j.Need(p.Requester.Name), p.Expires.UTC().Format("15:04 UTC")),
		approvalStatus(p, j.Verdict),
	}
}

// approvalStatus is the status line: what the plan waits for under the policy in force now
// (v), or how it ended.
func approvalStatus(p *store.Plan, v policy.Verdict) string {
	react := fmt.Sprintf("React ✅ to approve, ❌ to reject · details: @eos plan %s full", p.ID)
	switch p.State {
	case store.PlanPending:
		var parts []string
		if len(p.Approvals) > 0 || !v.Single() {
			parts = append(parts, Progress(v))
		}
		if len(v.Discounted) > 0 {
			parts = append(parts, DiscountedText(v))
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
		return "superseded: things changed after the approval, so nothing was applied · the request is answered again below, as things stand now"
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

// EditedPreview is p's preview as showStatus edits it: the rules in force now with the
// approvals they count (the same Judgement reactions are decided by), and no attachment,
// which went with the post when it was made and an edit would attach again.
func EditedPreview(p *store.Plan, j Judgement, vaultRow string) adapters.Doc {
	doc := Preview(p, j, vaultRow)
	doc.Attachment = nil
	return doc
}
