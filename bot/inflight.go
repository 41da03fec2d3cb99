package bot

import (
	"context"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
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
		var run *store.Run
		if r, err := e.st.Run(ctx, l.Holder); err == nil {
			run = r
		}
		return render.InFlight(l, run, service, env, e.inEnv(env))
	}
	return ""
}

// inEnv is " in ENV" for a suggestion about env, or "" for the default environment, which a
// request need not name.
func (e *Engine) inEnv(env string) string {
	if env == e.cfg.DefaultEnv {
		return ""
	}
	return " in " + env
}
