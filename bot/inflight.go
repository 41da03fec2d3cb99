package bot

import (
	"context"
	"fmt"
	"strings"
)

// inFlight is what to add to an answer about service in env that its declared state alone
// decides ("not deployed: nothing to destroy", "already deployed") while a run on it is under
// way: the run may change that answer when it ends. It names the run and what to do: ask again
// when it is done, or cancel it. "" when no run holds the service; else the sentence after
// sep, which follows what it is added to (" " after a sentence, " · " after a command).
func (e *Engine) inFlightAfter(ctx context.Context, sep, env, service string) string {
	if s := e.inFlight(ctx, env, service); s != "" {
		return sep + s
	}
	return ""
}

// inFlight is inFlightAfter's sentence.
func (e *Engine) inFlight(ctx context.Context, env, service string) string {
	locks, err := e.st.Locks(ctx)
	if err != nil {
		e.log.Error("reading locks", "err", err)
		return ""
	}
	key := env + "/" + service
	for _, l := range locks {
		if l.Key != key {
			continue
		}
		what := "is about to run on " + service // approved, planning again before it applies
		if run, err := e.st.Run(ctx, l.Holder); err == nil {
			what = "is " + verbing(run.Verb) + " " + run.Target
			if run.Target != service {
				what += " (and with it " + service + ")"
			}
		}
		return fmt.Sprintf("But run %s %s in %s right now (since %s), so this answer may change when it ends: ask again when it is done (@eos status %s%s), or stop it with @eos cancel %s.",
			l.Holder, what, env, l.Since.UTC().Format("15:04 UTC"), service, e.inEnv(env), l.Holder)
	}
	return ""
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

// inEnv is " in ENV" for a suggestion about env, or "" for the default environment, which a
// request need not name.
func (e *Engine) inEnv(env string) string {
	if env == e.cfg.DefaultEnv {
		return ""
	}
	return " in " + env
}
