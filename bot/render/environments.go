package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/store"
)

// The refusals about environments, and the sentence added to an answer while a run on its
// service is under way.

// LeftOutEnv refuses verbs other than destroy and the read-only ones in env, which the
// configuration no longer declares but which still holds services; hint is the setting that
// would declare it again.
func LeftOutEnv(env string, services []string, hint string) string {
	return fmt.Sprintf("%s is not a declared environment, but it still holds %s: only destroy, status, drift and history work there, "+
		"under the default policy, until the configuration declares it again (%s). Nothing changed.",
		env, strings.Join(services, ", "), hint)
}

// UnknownEnv refuses env, which nobody declared: the closest declared name (suggestion, when
// there is one), the environments there are, and hint, the setting that would declare it.
func UnknownEnv(env, suggestion string, envs []string, hint string) string {
	msg := fmt.Sprintf("unknown environment %q.", env)
	if suggestion != "" {
		msg = fmt.Sprintf("unknown environment %q — did you mean %q?", env, suggestion)
	}
	return msg + fmt.Sprintf(" Environments: %s. To use another, declare it in the configuration: %s. Nothing changed.",
		strings.Join(envs, ", "), hint)
}

// InFlight is what to add to an answer about service in env that its declared state alone
// decides while run l.Holder (run, nil while it is about to start) holds it: the run may change
// that answer when it ends. inEnv is " in ENV" where a request must name env.
func InFlight(l store.Lock, run *store.Run, service, env, inEnv string) string {
	what := "is about to run on " + service // approved, planning again before it applies
	if run != nil {
		what = "is " + verbing(run.Verb) + " " + run.Target
		if run.Target != service {
			what += " (and with it " + service + ")"
		}
	}
	return fmt.Sprintf("But run %s %s in %s right now (since %s), so this answer may change when it ends: ask again when it is done (@eos status %s%s), or stop it with @eos cancel %s.",
		l.Holder, what, env, l.Since.UTC().Format("15:04 UTC"), service, inEnv, l.Holder)
}

// PlannedInFlight is the note of a preview planned while run l.Holder holds one of its services
// in env (run is nil while the approved plan is planned again before it applies): the plan
// shows what was there before that run ends, so it may change. It says what to do: approve it
// once the run is done, or stop the run.
// A preview only (nothing to approve) is asked again instead.
func PlannedInFlight(l store.Lock, run *store.Run, env, inEnv string, previewOnly bool) string {
	service := strings.TrimPrefix(l.Key, env+"/")
	what := "is about to run on " + service
	if run != nil {
		what, service = "is "+verbing(run.Verb)+" "+run.Target, run.Target
	}
	then := "Approve it once the run is done"
	if previewOnly {
		then = "Ask again once the run is done"
	}
	return fmt.Sprintf("⚠ Planned while run %s %s in %s (since %s): this plan shows what is there before that run ends, so it may change. %s (@eos status %s%s), or stop the run with @eos cancel %s.",
		l.Holder, what, env, l.Since.UTC().Format("15:04 UTC"), then, service, inEnv, l.Holder)
}

// verbing is a run's verb as it happens: "creating", "destroying".
func verbing(verb string) string {
	switch verb {
	case "create", "update", "reconcile", "restore", "adopt", "resize":
		return strings.TrimSuffix(verb, "e") + "ing"
	case "destroy":
		return "destroying"
	case "rollback":
		return "rolling back"
	case "":
		return "changing"
	}
	return "running " + verb + " on"
}
