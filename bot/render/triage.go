package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// SeveralDrifted answers a triage reaction on a headline that lists more than one service.
func SeveralDrifted(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		env, service, _ := strings.Cut(k, "/")
		names[i] = service + " in " + env
	}
	return fmt.Sprintf("This digest lists %d services (%s): react 🔧, 📥 or 🔕 on the service's own reply in this thread, or say @eos reconcile SERVICE in ENV.",
		len(keys), strings.Join(names, ", "))
}

// AlreadyAsked answers a reaction on a post whose plan (of verb, "" while it is being made)
// is still being made or waits for approval.
func AlreadyAsked(service, env, verb string, c *store.Claim) string {
	if c.PlanID == "" || verb == "" {
		return fmt.Sprintf("@%s is already asking for a plan of %s in %s from this post: its preview follows in this thread.", c.User, service, env)
	}
	return fmt.Sprintf("Plan %s (%s %s in %s, asked by @%s) is already waiting in this thread: approve or reject it there. Nothing new planned.",
		c.PlanID, verb, service, env, c.User)
}

// TooOld answers a triage reaction on a digest post older than days days, naming the command
// to type instead.
func TooOld(botName string, keys []string, days int) adapters.Doc {
	ask := "@" + botName + " reconcile SERVICE in ENV"
	if len(keys) == 1 {
		env, service, _ := strings.Cut(keys[0], "/")
		ask = fmt.Sprintf("@%s reconcile %s in %s", botName, service, env)
	}
	return Reply(fmt.Sprintf("This digest is too old to act on (🔧, 📥 and 🔕 work for %d days after a digest): ask %s. Nothing planned.",
		days, ask))
}

// NothingToSnooze answers a 🔕 on a service that matched its declared state when last checked.
func NothingToSnooze(service, env string) adapters.Doc {
	return Reply(fmt.Sprintf("%s in %s matches its declared state as last checked: nothing to snooze. @eos drift %s in %s",
		service, env, service, env))
}

// Snoozed answers a 🔕 by user that snoozed service in env until until.
func Snoozed(user string, until time.Time, service, env string) adapters.Doc {
	return Reply(fmt.Sprintf("Snoozed by @%s until %s: %s in %s leaves the digest's list until then, or until its drift changes. Nothing changed in %s · @eos drift snoozed",
		user, Day(until), service, env, env))
}

// SnoozeLifted answers the removal of a 🔕 by user, which lifted by's snooze of service in env
// (until until).
func SnoozeLifted(user, service, env, by string, until time.Time) adapters.Doc {
	return Reply(fmt.Sprintf("Snooze lifted by @%s: %s in %s is back in the digest's list (snoozed by @%s until %s). Nothing changed in %s · @eos drift %s in %s",
		user, service, env, by, Day(until), env, service, env))
}

// NothingSnoozed answers `drift snoozed` when no snooze holds.
func NothingSnoozed() adapters.Doc {
	return Reply("Nothing is snoozed: every drifted service is in the digests. React 🔕 on a service's reply in a digest to snooze it for 7 days.")
}

// SnoozedList answers `drift snoozed`: one row per snooze that holds (service, env, by,
// until, drift).
func SnoozedList(rows [][]string) adapters.Doc {
	return adapters.NewDoc(adapters.Heading{Text: fmt.Sprintf("Snoozed drift · %d service%s", len(rows), Plural(len(rows)))},
		adapters.Table{Header: []string{"service", "env", "snoozed by", "until", "drift"}, Rows: rows},
		adapters.Context{Text: "A snooze ends early when the service's drift changes · @eos reconcile SERVICE in ENV to fix it"})
}
