package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/executor"
)

// What Eos says about an approved plan or a run after the fact: after a restart, when the
// disk is full, when the policy changed under it, or when an outcome it did not see is found.

// Interrupted replaces the progress of run id, which a restart cut short (reached says how far
// it got), on target in env.
func Interrupted(id, reached, target, env string) adapters.Doc {
	return Reply(fmt.Sprintf("Run %s · interrupted: Eos stopped while it ran%s. The lock on %s/%s is released; nothing is applied again. Check @eos drift %s before asking again.",
		id, reached, target, env, target))
}

// Reached says how far an interrupted run got, from what it recorded as each layer's status:
// " (Salt ✅ done · Terraform ⏳ interrupted, maybe partly applied)", or "" when nothing.
func Reached(layers []executor.LayerResult) string {
	var parts []string
	for _, l := range layers {
		switch l.Status {
		case executor.ResultOK:
			parts = append(parts, l.Layer.Title()+" ✅ done")
		case executor.ResultRunning:
			parts = append(parts, l.Layer.Title()+" ⏳ interrupted, maybe partly applied")
		case executor.ResultNotStarted:
			parts = append(parts, l.Layer.Title()+" not started")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, " · ") + ")"
}

// ExpiredApproved says approved plan id expired at at before it ran, and why (why), with the
// request to ask again (text, as typed).
func ExpiredApproved(id, why string, at time.Time, text string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s was approved, but %s at %s: nothing ran. Ask again for a fresh plan: @eos %s",
		id, why, at.UTC().Format("15:04 UTC"), text))
}

// NoLongerSuffices says approved plan id did not run because under the policy in force now its
// approvals (v) do not suffice; need says what it needs now.
func NoLongerSuffices(id string, v policy.Verdict, need string) adapters.Doc {
	msg := fmt.Sprintf("Plan %s was approved, but under the current policy its approvals do not suffice (%s).", id, Progress(v))
	if len(v.Discounted) > 0 {
		msg += " " + DiscountedText(v) + "."
	}
	return Reply(msg + " Nothing ran; it waits for approval again: " + need + ".")
}

// NowSuffices says the approvals plan id has suffice under the policy in force now (v), so it
// runs.
func NowSuffices(id string, v policy.Verdict) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s: under the current policy the approvals it has suffice (%s). Running it.", id, Progress(v)))
}

// PreviewGone says plan id (request, asked by requester) is cancelled because its preview is
// gone.
func PreviewGone(id, request, requester string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s (%s, asked by @%s) is cancelled: its preview is gone, so nobody could approve it. "+
		"Nothing changed. Ask again for a fresh plan.", id, request, requester))
}

// HaltedByPolicy says approved plan id did not run because the policy in force now denies it
// (code), with the request to ask again (typed).
func HaltedByPolicy(id string, code Code, typed string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s was approved, but the policy in force now denies it, so it did not run:\n%s\nNothing was applied, so nothing was rolled back. Ask again once the plan or the policy changes: @eos %s",
		id, strings.Join(DenyLines(code), "\n"), typed))
}

// HeldForSpace says approved plan id waits because where is full, checking every every, until
// the plan expires at expires.
func HeldForSpace(id, where string, every time.Duration, expires time.Time) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s was approved, but %s is full (no space left on device), so its run cannot start yet. Nothing changed. "+
		"The approval is kept and the run starts when there is space (checking every %d s): free space there. "+
		"It does not start if the plan expires first (%s), is cancelled, or its ✅ is removed.",
		id, where, int(every/time.Second), expires.UTC().Format("15:04 UTC")))
}

// OutcomeFound says what the check of run id's unknown outcome found in layer d.Layer, once its
// server answered again: the sentence also recorded in the audit log.
func OutcomeFound(id string, d executor.LayerDrift) string {
	t := d.Layer.Title()
	switch d.Status {
	case executor.DriftClean:
		return fmt.Sprintf("%s answers again, and what run %s gave it is in place: its apply did finish.", t, id)
	case executor.DriftSkipped:
		return fmt.Sprintf("%s answers again, but has nothing of run %s to check (%s).", t, id, d.Reason)
	}
	return fmt.Sprintf("%s answers again, and what run %s gave it is not all in place: %s.", t, id, strings.Join(ChangeTexts(d.Changes), "; "))
}

// OutcomeDoc is what Eos posts about found, the check of an unknown outcome on target.
func OutcomeDoc(found, target string) adapters.Doc {
	return Reply(found, "Nothing was rolled back, and the layers after it did not start: ask again to finish the change · @eos status "+target)
}
