package bot

import (
	"context"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
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
	if l, run, ok := e.runOn(ctx, env, []string{service}); ok {
		return render.InFlight(l, run, service, env, e.inEnv(env))
	}
	return ""
}

// planInFlight is the note a preview of spec carries when a run holds one of its services
// while it is planned: the plan shows what is there before that run ends, so it may change.
// "" when no run holds any.
func (e *Engine) planInFlight(ctx context.Context, spec executor.Spec, previewOnly bool) string {
	services := make([]string, 0, len(spec.Units))
	for _, u := range spec.Units {
		services = append(services, u.Service)
	}
	if l, run, ok := e.runOn(ctx, spec.Env, services); ok {
		return render.PlannedInFlight(l, run, spec.Env, e.inEnv(spec.Env), previewOnly)
	}
	return ""
}

// runOn is the lock a run holds on one of services in env, and the run when it has started
// (an approved plan takes the lock before it is planned again); ok is false when none does.
func (e *Engine) runOn(ctx context.Context, env string, services []string) (store.Lock, *store.Run, bool) {
	locks, err := e.st.Locks(ctx)
	if err != nil {
		e.log.Error("reading locks", "err", err)
		return store.Lock{}, nil, false
	}
	for _, service := range services {
		key := env + "/" + service
		for _, l := range locks {
			if l.Key != key {
				continue
			}
			var run *store.Run
			if r, err := e.st.Run(ctx, l.Holder); err == nil {
				run = r
			}
			return l, run, true
		}
	}
	return store.Lock{}, nil, false
}

// inEnv is " in ENV" for a suggestion about env, or "" for the default environment, which a
// request need not name.
func (e *Engine) inEnv(env string) string {
	if env == e.cfg.DefaultEnv {
		return ""
	}
	return " in " + env
}
