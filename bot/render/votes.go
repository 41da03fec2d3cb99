package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/store"
)

// What Eos says about a ✅ or ❌ on a preview, when the preview's status line cannot say it.

// Rejected says plan id was rejected by user.
func Rejected(id, user string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s rejected by @%s. Nothing changed.", id, user))
}

// ApprovalCounted says user's approval of plan id counted, and what it still needs (v).
func ApprovalCounted(id, user string, v policy.Verdict) adapters.Doc {
	return Reply(fmt.Sprintf("Approval for plan %s from @%s: %s.", id, user, Progress(v)))
}

// Denied refuses an approval of plan id that the policy as code denies, naming its rules.
func Denied(id string, code Code) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s cannot be approved: the policy denies it.\n%s\nNothing changed. Change the request, or ask the policy's owners to change the rule.",
		id, strings.Join(DenyLines(code), "\n")))
}

// Unrecorded answers a reaction the store could not record (its disk full, its database
// gone): never in silence, and saying what still holds, since nothing changed.
func Unrecorded(id, user string, reject, removed bool, err error) adapters.Doc {
	emoji := "✅"
	if reject {
		emoji = "❌"
	}
	if removed {
		return Reply(fmt.Sprintf("@%s, Eos could not record the removal of your %s on plan %s: its store cannot be written (%v). Nothing changed: it still counts. Add and remove it again once the store can be written (/healthz says).",
			user, emoji, id, err))
	}
	return Reply(fmt.Sprintf("@%s, Eos could not record your %s on plan %s: its store cannot be written (%v). Nothing changed and nothing starts from it: remove and add it again once the store can be written (/healthz says).",
		user, emoji, id, err))
}

// ApprovalNotShown answers user's ✅ on plan id that the platform no longer shows on the preview
// when Eos asks (a late or repeated delivery of one taken off): it does not count.
func ApprovalNotShown(id, user, platform string) adapters.Doc {
	return Reply(fmt.Sprintf("@%s, your ✅ on plan %s does not count: by the time Eos asked %s, it was no longer on the preview. If it is there now, take it off and put it back.",
		user, id, platformName(platform)))
}

// ApprovalUnconfirmed answers user's ✅ on plan id when asking the platform whether it is on
// the preview failed (err): it does not count yet.
func ApprovalUnconfirmed(id, user, platform string, err error) adapters.Doc {
	return Reply(fmt.Sprintf("@%s, your ✅ on plan %s does not count yet: Eos could not confirm with %s that it is on the preview (%v). Nothing changed and nothing starts from it: take it off and put it back in a moment.",
		user, id, platformName(platform), err))
}

// PreviewOnly answers a reaction on the preview of plan id, which never runs, with the
// request that would (verb target).
func PreviewOnly(id, verb, target string) string {
	return fmt.Sprintf("Plan %s is a preview only and never runs. To apply it: @eos %s %s", id, verb, target)
}

// ExpiredOnVote answers an approval of plan id, which expired at expires; text is the request.
func ExpiredOnVote(id string, expires time.Time, text string) string {
	return fmt.Sprintf("Plan %s expired at %s: nothing changed. Ask again for a fresh plan: @eos %s", id, expires.UTC().Format("15:04 UTC"), text)
}

// NotPendingOnVote answers a reaction on plan id, which is state and did not run.
func NotPendingOnVote(id string, state store.PlanState) string {
	return fmt.Sprintf("Plan %s is %s: nothing started. Ask again for a new plan.", id, state)
}

// WouldFail answers an approval of plan id, which a layer says would fail (failures), with the
// request to ask again (typed).
func WouldFail(id string, failures []string, typed string) string {
	return fmt.Sprintf("Plan %s cannot be approved: it would fail.\n%s\nNothing changed. Fix what fails, then ask again: @eos %s",
		id, strings.Join(failures, "\n"), typed)
}

// AlreadyRan answers an approval of plan id, whose run exists: what became of it.
func AlreadyRan(id string, run *store.Run) string {
	what := string(run.State)
	if !run.Finished.IsZero() {
		what += " " + run.Finished.UTC().Format("15:04 UTC")
	} else {
		what += " since " + run.Started.UTC().Format("15:04 UTC")
	}
	return fmt.Sprintf("Plan %s already ran (run %s, %s): nothing started; ask again for a new plan.", id, run.ID, what)
}

// NotAllowed refuses user's reaction (what: approve, reject) on a plan in env, and says why.
func NotAllowed(user, what, env, why string) string {
	return fmt.Sprintf("@%s can't %s %s plans (%s). Nothing changed.", user, what, env, why)
}

// HandlesPinnedElsewhere adds to a refusal's reason the policy's handles the person holds
// now that name another account (the one that held each when Eos first looked it up);
// "" when there are none.
func HandlesPinnedElsewhere(handles []string) string {
	if len(handles) == 0 {
		return ""
	}
	q := make([]string, len(handles))
	for i, h := range handles {
		q[i] = fmt.Sprintf("%q", h)
	}
	return fmt.Sprintf("; the policy's %s names the account that held it when Eos first looked it up, not this one: an operator re-points it with eos policy handles --forget",
		strings.Join(q, ", "))
}

// HandlesNobodyHeld explains, after a refusal's reason, that the handles the person holds on
// platform name nobody: no account held them when Eos first looked them up, so Eos cannot tell
// whether the account that took one later is the person the policy means.
func HandlesNobodyHeld(platform string, handles []string) string {
	if len(handles) == 0 {
		return ""
	}
	q := make([]string, len(handles))
	for i, h := range handles {
		q[i] = fmt.Sprintf("%q", h)
	}
	return fmt.Sprintf("; no %s account held the policy's %s when Eos first looked it up, so Eos cannot tell whether this account is the one it means: once that person holds it, an operator confirms it with eos policy handles --forget %s:%s",
		platform, strings.Join(q, ", "), platform, strings.Trim(q[0], `"`))
}

// NotPendingToCancel refuses a cancel of plan id, which is state.
func NotPendingToCancel(id string, state store.PlanState) string {
	return fmt.Sprintf("Plan %s is %s, not pending: nothing to cancel.", id, state)
}

// CantCancel refuses user's cancel of plan id: only its requester or an approver (who) may.
func CantCancel(user, id, requester, who string) string {
	return fmt.Sprintf("@%s can't cancel plan %s: only @%s or an approver (%s) can.", user, id, requester, who)
}

// OnTheRequest answers a ✅ (or, reject, a ❌) user put on the request that asked for plans
// ids rather than on a preview: it counts for nothing, and says where it would.
func OnTheRequest(user string, ids []string, reject bool) adapters.Doc {
	emoji, what := "✅", "approve"
	if reject {
		emoji, what = "❌", "reject"
	}
	which := "the preview of plan " + ids[0] + ", Eos's reply in this thread"
	if len(ids) > 1 {
		which = "the preview of the plan you mean (" + strings.Join(ids, ", ") + "), among Eos's replies in this thread"
	}
	return Reply(fmt.Sprintf("@%s, a reaction on the request counts for nothing: to %s, react %s on %s. Nothing changed.", user, what, emoji, which))
}

// WithdrawnTooLate answers user taking back their ✅ on plan id while its run applies: that
// stops nothing, and says what does.
func WithdrawnTooLate(id, user string, run *store.Run) string {
	return fmt.Sprintf("@%s, plan %s is running (run %s, since %s): taking back your ✅ does not stop it. To stop it at the next safe point: @eos cancel %s",
		user, id, run.ID, run.Started.UTC().Format("15:04 UTC"), id)
}
