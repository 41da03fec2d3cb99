package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/eosbot/eos/bot/compile"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// compile turns an intent into the Spec it asks for (bot/compile), against the catalog and the
// declared state in the store; a request compile turns away is a userError, said as it is.
func (e *Engine) compile(ctx context.Context, in *intents.Intent) (executor.Spec, error) {
	spec, _, err := e.compileRead(ctx, in)
	return spec, err
}

// compileRead is compile that also returns what it read of the declared state: for each unit
// it looked up, the run that declared it as basis records it (supersede.go). A plan binds its
// approval to what its spec was compiled from, not to what is declared a moment later.
func (e *Engine) compileRead(ctx context.Context, in *intents.Intent) (executor.Spec, map[string]string, error) {
	read := map[string]string{}
	c := compile.Compiler{
		Catalog: e.cfg.Catalog, State: declaredState{ctx, e.st, read}, DefaultEnv: e.cfg.DefaultEnv, Variants: e.cfg.Variants,
		SecretsPath: e.cfg.SecretsPath, SecretsConfigured: e.cfg.Runner.SecretsConfigured(),
		InFlight: func(env, service string) string { return e.inFlight(ctx, env, service) }, Log: e.log, // a run under way may change the answer (inflight.go)
	}
	spec, err := c.Compile(in)
	if r := (*compile.Refusal)(nil); errors.As(err, &r) {
		return executor.Spec{}, nil, &userError{msg: r.Msg, secret: r.Secret}
	}
	return spec, read, err
}

// declaredState is the store's declared state as compile reads it.
type declaredState struct {
	ctx context.Context // of the request being compiled
	st  *store.Store
	// read records, when not nil, each unit looked up: key → its basis (supersede.go).
	read map[string]string
}

func (d declaredState) Declared(env, service string) (compile.Deployed, bool, error) {
	key := env + "/" + service
	dep, err := d.st.Declared(d.ctx, key)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if d.read != nil {
			d.read[key] = ""
		}
		return compile.Deployed{}, false, nil
	case err != nil:
		return compile.Deployed{}, false, err
	}
	if d.read != nil {
		d.read[key] = basisOf(dep)
	}
	return compile.Deployed{RunID: dep.RunID, Destroyed: dep.Destroyed, Spec: dep.Spec}, true, nil
}

func (d declaredState) DeclaredIn(env string) ([]compile.Deployed, error) {
	all, err := d.st.AllDeclared(d.ctx)
	if err != nil {
		return nil, err
	}
	in := declaredIn(all, env)
	var out []compile.Deployed
	for _, dep := range in {
		out = append(out, compile.Deployed{RunID: dep.RunID, Destroyed: dep.Destroyed, Spec: dep.Spec})
	}
	if d.read != nil {
		d.read[env+everyService] = listing(in) // a destroy's dependents (basislisting.go)
	}
	return out, nil
}

// declaredIn is the declared state of all in env.
func declaredIn(all []*store.Deployed, env string) []*store.Deployed {
	var out []*store.Deployed
	for _, dep := range all {
		if denv, _, _ := strings.Cut(dep.Key, "/"); denv == env {
			out = append(out, dep)
		}
	}
	return out
}
