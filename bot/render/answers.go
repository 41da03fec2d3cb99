package render

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// The short answers of the conversation: refusals, "nothing to do" and acknowledgements, each
// one sentence (with a hint of what to type next where there is one). The engine decides
// which one applies and fills it in; the words are here.

// Failed answers a request that failed for a reason that is not the asker's: what failed and
// why, and that nothing changed.
func Failed(what string, err error) adapters.Doc {
	return Reply(fmt.Sprintf("%s failed: %s. Nothing changed.", what, err))
}

// NoSuchPlan answers a plan id that names no plan the asker may see.
func NoSuchPlan(id string) adapters.Doc { return Reply(fmt.Sprintf("There is no plan %s.", id)) }

// NoPlanNamed answers `plan ID` and `why ID` when ID names no plan (and no service), saying
// what a plan's name looks like.
func NoPlanNamed(id string) adapters.Doc {
	return Reply(fmt.Sprintf("There is no plan %s. Plans are named in their preview, like \"Plan 7f3a9c21\".", id))
}

// NotRequester refuses a change asked for by user in env, who is not among its requesters.
func NotRequester(user, env string, requesters []string) adapters.Doc {
	return Reply(fmt.Sprintf("@%s can't ask for changes in %s (requesters: %s). Nothing changed.", user, env, Mentions(requesters)))
}

// ServiceBusy says that run holder has held service in env since since, so nothing else may
// change it now.
func ServiceBusy(service, env, holder string, since time.Time) string {
	return fmt.Sprintf("%s in %s is being changed by run %s (since %s). Ask again when it is done · @eos status %s",
		service, env, holder, since.UTC().Format("15:04 UTC"), service)
}

// NoRuns answers `history [SERVICE] [in ENV]` when nothing ran yet; what is the service, or
// "anything", env the environment asked about ("" for every one).
func NoRuns(what, env string) adapters.Doc {
	if env != "" {
		what += " in " + env
	}
	return Reply(fmt.Sprintf("No runs of %s yet. Ask for one: @eos create SERVICE · @eos help", what))
}

// WhyWhichPlan answers `why` without a plan id outside a plan's thread, listing open, the
// plans open where it was asked (oldest first, at most whyListed), each with its command.
func WhyWhichPlan(open []*store.Plan) adapters.Doc {
	text := "Which plan? Name it (@eos why 7f3a9c21, the id in its preview), or say @eos why in the plan's thread."
	if len(open) == 0 {
		return Reply(text)
	}
	open = oldestFirst(open)
	more := len(open) - whyListed
	open = open[:min(len(open), whyListed)]
	items := make([]string, len(open))
	for i, p := range open {
		items[i] = fmt.Sprintf("%s · %s · asked by @%s · %s · @eos why %s", p.ID, RequestLine(p.Plan.Spec), p.Requester.Name, p.State, p.ID)
	}
	if more > 0 {
		items = append(items, fmt.Sprintf("and %d more", more))
	}
	return adapters.NewDoc(adapters.Text{Text: text + " Open here:"}, adapters.List{Items: items})
}

// whyListed is how many open plans WhyWhichPlan lists.
const whyListed = 5

// oldestFirst is plans in the order they were asked for, the caller's slice left as it is.
func oldestFirst(plans []*store.Plan) []*store.Plan {
	out := slices.Clone(plans)
	slices.SortStableFunc(out, func(a, b *store.Plan) int { return a.Created.Compare(b.Created) })
	return out
}

// WaitingOn adds to refusal msg the pending plans on its service (oldest first): "… nothing to
// destroy. Plan c23028a4 (create grafana in production, asked by @alice) waits for approval
// in its thread." after a sentence, " · plan …" after a suggested command.
func WaitingOn(msg string, plans []*store.Plan) string {
	if len(plans) == 0 {
		return msg
	}
	items := make([]string, len(plans))
	for i, p := range oldestFirst(plans) {
		items[i] = fmt.Sprintf("plan %s (%s, asked by @%s)", p.ID, RequestLine(p.Plan.Spec), p.Requester.Name)
	}
	s := items[0] + " waits for approval in its thread"
	if len(items) > 1 {
		s = strings.Join(items, ", ") + " wait for approval in their threads"
	}
	if strings.HasSuffix(msg, ".") {
		return msg + " " + strings.ToUpper(s[:1]) + s[1:] + "."
	}
	return msg + " · " + s
}

// PlanWhichPlan answers `plan` without a service or plan id outside a plan's thread.
func PlanWhichPlan() adapters.Doc {
	return Reply("plan needs a service or a plan id, like plan nextcloud or plan 7f3a9c21; in a plan's thread, @eos plan full shows its every change.")
}

// NothingToCancel answers `cancel` from someone with no pending plan.
func NothingToCancel() adapters.Doc {
	return Reply("You have no pending plan to cancel. Name one: @eos cancel 7f3a9c21")
}

// WhichToCancel answers `cancel` from someone with several pending plans: it lists them, oldest
// first, each with the command that cancels it, and cancels none.
func WhichToCancel(mine []*store.Plan) adapters.Doc {
	mine = oldestFirst(mine)
	items := make([]string, len(mine))
	for i, p := range mine {
		spec := p.Plan.Spec
		items[i] = fmt.Sprintf("%s · %s %s in %s · asked %s · @eos cancel %s", p.ID, spec.Verb, spec.Target, spec.Env,
			p.Created.UTC().Format("15:04 UTC"), p.ID)
	}
	return adapters.NewDoc(adapters.Text{Text: fmt.Sprintf("You have %d pending plans; name the one to cancel. Nothing was cancelled.", len(mine))},
		adapters.List{Items: items})
}

// Cancelled answers a cancel of plan id by user.
func Cancelled(id, user string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s cancelled by @%s. Nothing changed.", id, user))
}

// NothingDeployed answers `status` when nothing matches, for service and env when asked ("" for
// all): "Nothing is deployed yet", or "grafana is not deployed in staging" with the command
// that deploys it there.
func NothingDeployed(service, env string) adapters.Doc {
	where, in := " yet", ""
	if env != "" {
		where, in = " in "+env, " in "+env
	}
	if service == "" {
		return Reply("Nothing is deployed" + where + ". @eos create SERVICE · @eos help create")
	}
	return Reply(fmt.Sprintf("%s is not deployed%s. To deploy it: @eos create %s%s · @eos help %s", service, where, service, in, service))
}

// WebOff answers `web` when the status page is off.
func WebOff() adapters.Doc {
	return Reply("The status page is off, so there is no link to send.",
		`To turn it on, give Eos a "listen" address to serve it on, or its public address as web { url = "https://…" } in the configuration.`)
}

// CannotWhisper answers `web` on a platform where Eos cannot send a private message.
func CannotWhisper(platform string) adapters.Doc {
	return Reply(fmt.Sprintf("No sign-in link was sent: Eos cannot send a private message on %s, "+
		"and a link posted here would sign in whoever clicks it first.", platform))
}

// WhisperFailed answers `web` when sending the link privately failed.
func WhisperFailed() adapters.Doc {
	return Reply("Sending you a sign-in link privately failed, so no link was sent. Try again in a moment.")
}

// LinkSent answers `web` once the link went privately; ttl says how long it works.
func LinkSent(ttl string) adapters.Doc {
	return Reply(fmt.Sprintf("I sent you a sign-in link for the status page privately; it works once, within %s.", ttl))
}

// TooBusyMessage tells user that a message was dropped because the queue is full (why).
func TooBusyMessage(user, why string) adapters.Doc {
	return Reply(fmt.Sprintf("@%s, Eos is too busy to take this now (%s): nothing was done. Say it again in a minute.", user, why))
}

// TooBusyReaction tells user that a reaction was dropped because the queue is full (why).
func TooBusyReaction(user, emoji, why string) adapters.Doc {
	return Reply(fmt.Sprintf("@%s, Eos is too busy to take your :%s: now (%s): it was not counted. Remove it and react again in a minute.",
		user, emoji, why))
}

// TooBusyEdit tells user that an edit was dropped because the queue is full (why).
func TooBusyEdit(user, why string) adapters.Doc {
	return Reply(fmt.Sprintf("@%s, Eos is too busy to look at your edit now (%s): a plan for the message as it read before may still wait for approval. Cancel it with @eos cancel, then ask again.",
		user, why))
}

// SecretInEdit refuses an edit in which someone typed a secret.
func SecretInEdit() adapters.Doc {
	return Reply("Secrets are never typed in chat, not in an edit either: Eos generates them and keeps them in Vault.")
}

// RequestEdited answers an edit of a request after its preview: the plans cancelled for it,
// and those approved already, which run as approved.
func RequestEdited(user string, cancelled, ran []string) adapters.Doc {
	var lines []string
	if len(cancelled) > 0 {
		lines = append(lines, fmt.Sprintf("Plan %s was for the request as it read before, so it is cancelled: nothing changed.", strings.Join(cancelled, ", ")))
	}
	if len(ran) > 0 {
		lines = append(lines, fmt.Sprintf("Plan %s was approved as the request read before and runs as approved; the edit changes nothing.", strings.Join(ran, ", ")))
	}
	return Reply(fmt.Sprintf("@%s, your request was edited after the preview: ask again, in a new message. %s", user, strings.Join(lines, " ")))
}

// CancelledBecause says plan id was cancelled, and why (its request was deleted).
func CancelledBecause(id, reason string) adapters.Doc {
	return Reply(fmt.Sprintf("Plan %s cancelled: %s. Nothing changed.", id, reason))
}

// Unreadable answers a message the parser failed on for a reason of its own (not a mistake
// in the message it can point at).
func Unreadable(err error) adapters.Doc {
	return Reply("I could not read that message: " + err.Error())
}

// NotAChange answers `eos plan` given a request that changes nothing (verb, as typed).
func NotAChange(verb string) adapters.Doc {
	return Reply(fmt.Sprintf("eos plan previews changes; %q changes nothing. Try: eos plan \"create grafana\"", verb))
}

// PlanningFailed answers `eos plan` when planning failed.
func PlanningFailed(err error) adapters.Doc { return Reply("planning failed: " + err.Error()) }

// SignInLink is the private message that carries a one-time sign-in link to the status page:
// it works once, within ttl, and signs its owner in for session.
func SignInLink(link, ttl, session string) adapters.Doc {
	return adapters.NewDoc(
		adapters.Text{Text: "Your sign-in link for the Eos status page: " + link},
		adapters.Text{Text: fmt.Sprintf("It works once, within %s, and signs you in as yourself for %s.", ttl, session)},
		adapters.Context{Text: "Do not share it: whoever uses it first is signed in as you."},
	)
}

// Scanning is a digest's headline while its services are checked: done of total.
func Scanning(done, total int) adapters.Doc {
	return Reply(fmt.Sprintf("Drift · scanning %d/%d…", done, total))
}

// OperationRunsNowhere refuses operation ("resize lvm"), whose layers (off) are none of them
// configured here, so its run would do nothing.
func OperationRunsNowhere(operation string, off []string) adapters.Doc {
	return Reply(fmt.Sprintf("%s runs on %s, which %s not configured here: approving it would run nothing, so nothing is planned. "+
		"Configure %s (README, Configuration) to run it.", operation, strings.Join(off, " and "), isAre(len(off)), strings.Join(off, " and ")))
}

// OperationChangesNothing refuses operation ("resize lvm data 20G"), whose layers (checked)
// find everything already as it asks.
func OperationChangesNothing(operation string, checked []string) adapters.Doc {
	return Reply(fmt.Sprintf("%s would change nothing: %s %s everything already as asked, so nothing is planned.",
		operation, strings.Join(checked, " and "), oneOrMany(len(checked), "finds", "find")))
}
