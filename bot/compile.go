package bot

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// compile turns an intent into the declarative Spec it asks for: the blueprint rendered with
// the typed flags (merged over the declared ones for update), dependencies first. A dependency
// deployed already is rendered from its declared values plus the flags its requires block sets,
// and left out of the units when that changes none of them. Destroy compiles to the declared
// state with every unit marked for removal (see compileDestroy). The spec records what the
// request set (Spec.Asked), which the preview's first line repeats.
func (e *Engine) compile(in *intents.Intent) (executor.Spec, error) {
	spec, err := e.compileSpec(in)
	if err != nil {
		return executor.Spec{}, err
	}
	if bp, err := e.blueprint(in); err == nil {
		spec.Asked = askedOf(bp, in)
	}
	return spec, nil
}

func (e *Engine) compileSpec(in *intents.Intent) (executor.Spec, error) {
	env := in.Env
	if env == "" {
		env = e.cfg.DefaultEnv
	}
	bp, err := e.blueprint(in)
	if err != nil {
		return executor.Spec{}, err
	}
	verb := in.VerbWord()
	if err := e.refuseSecrets(bp, in, env); err != nil {
		return executor.Spec{}, err
	}
	declared, err := e.st.Declared(env + "/" + bp.Name)
	deployed := err == nil && !declared.Destroyed
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return executor.Spec{}, err
	}
	// An answer the declared state alone decides names a run under way on the service, which
	// may change it (inflight.go).
	switch {
	case in.Verb == intents.VerbDestroy && !deployed:
		return executor.Spec{}, refuse("%s is not deployed in %s: nothing to destroy.%s", bp.Name, env, e.inFlightAfter(" ", env, bp.Name))
	case in.Verb == intents.VerbDestroy:
		return e.compileDestroy(in, bp, env, declared)
	case in.Verb == intents.VerbCreate && deployed:
		return executor.Spec{}, refuse("%s is already deployed in %s (run %s). To change it: @eos update %s --flag value%s%s", bp.Name, env, declared.RunID, bp.Name, e.inEnv(env), e.inFlightAfter(" · ", env, bp.Name))
	case in.Verb == intents.VerbUpdate && !deployed:
		return executor.Spec{}, refuse("%s is not deployed in %s yet. To deploy it: @eos create %s%s%s%s", bp.Name, env, bp.Name, sameFlags(in), e.inEnv(env), e.inFlightAfter(" · ", env, bp.Name))
	}
	deps := e.deployedDeps(env)
	req := catalog.Request{Flags: map[string]catalog.Value{}, Args: in.Args, Env: env, Variant: e.cfg.Variants[env], Deployed: deps.values}
	if in.Verb == intents.VerbUpdate {
		req.Flags = bp.DeclaredFlags(declared.Spec.Units[0].Values)
	}
	for _, f := range in.Flags {
		req.Flags[f.Name] = f.Value
	}
	rendered, err := e.cfg.Catalog.Resolve(bp, req)
	if deps.err != nil {
		return executor.Spec{}, deps.err
	}
	if err != nil {
		return executor.Spec{}, &userError{msg: err.Error()}
	}
	spec := executor.Spec{Verb: verb, Target: bp.Name, Env: env}
	reasons := map[string]string{}
	for _, r := range rendered {
		for _, q := range r.Requires {
			reasons[q.Service] = "because of " + q.Because
		}
	}
	for _, r := range rendered {
		u := unitOf(r, in.Nodes)
		if r.Blueprint != bp {
			u.Reason = reasons[u.Service]
		}
		if r.Deployed && !deps.dependency(&spec, &u) {
			continue // deployed as the request needs it: nothing touches it
		}
		spec.Units = append(spec.Units, u)
	}
	return spec, nil
}

func (e *Engine) blueprint(in *intents.Intent) (*catalog.Blueprint, error) {
	if in.Verb == intents.VerbOperation {
		if bp, ok := e.cfg.Catalog.Operation(in.Operation, in.Noun); ok {
			return bp, nil
		}
		return nil, refuse("there is no operation %q %q in the catalog · @eos help %s", in.Operation, in.Noun, in.Operation)
	}
	if bp, ok := e.cfg.Catalog.Service(in.Noun); ok {
		return bp, nil
	}
	return nil, refuse("unknown service %q · Services: %s", in.Noun, strings.Join(e.cfg.Catalog.ServiceNames(), ", "))
}

// refuseSecrets turns away a secret typed in chat, saying where Eos keeps the generated one,
// or, without Vault, that it keeps none.
func (e *Engine) refuseSecrets(bp *catalog.Blueprint, in *intents.Intent, env string) error {
	for _, f := range in.Flags {
		fl, ok := bp.Flag(f.Name)
		if !ok || !fl.Secret {
			continue
		}
		what := strings.ReplaceAll(f.Name, "-", " ")
		path := e.secretPath(env, bp.Name, strings.ReplaceAll(f.Name, "-", "_"))
		msg := fmt.Sprintf("Secrets are never typed in chat: I generate %s's %s and keep it in Vault at %s.", bp.Name, what, path)
		if !e.cfg.Runner.SecretsConfigured() {
			msg = fmt.Sprintf("Secrets are never typed in chat: with Vault configured I generate %s's %s and keep it at %s; "+
				"this Eos has no Vault, so it keeps none.", bp.Name, what, path)
		}
		return &userError{secret: true, msg: msg + fmt.Sprintf(" Ask again without --%s.", f.Name)}
	}
	return nil
}

func (e *Engine) secretPath(env, service, name string) string {
	return strings.NewReplacer("{env}", env, "{service}", service, "{name}", name).Replace(e.cfg.SecretsPath)
}

// unitOf copies a rendered blueprint into a self-contained Unit.
func unitOf(r *catalog.Rendered, nodes []string) executor.Unit {
	u := executor.Unit{Service: r.Blueprint.Name, Values: map[string]string{}}
	for name, v := range r.Values {
		u.Values[name] = v.Text
	}
	for _, s := range r.Blueprint.Secrets {
		u.Secrets = append(u.Secrets, s.Name)
	}
	if r.Salt != nil {
		u.Salt = &executor.SaltPart{State: r.Salt.State, Text: r.Salt.Text, Pillar: r.Salt.Pillar, Targets: nodes, HoldsData: r.Salt.HoldsData}
	}
	if r.Terraform != nil {
		u.Terraform = &executor.TerraformPart{Files: r.Terraform.Files, Vars: r.Terraform.Vars, HoldsData: r.Terraform.HoldsData}
	}
	if r.Nomad != nil {
		u.Nomad = &executor.NomadPart{Template: r.Nomad.Template, Vars: r.Nomad.Vars, HoldsData: r.Nomad.HoldsData}
	}
	return u
}

// inEnv is " in ENV" for a suggestion about env, or "" for the default environment, which a
// request need not name.
func (e *Engine) inEnv(env string) string {
	if env == e.cfg.DefaultEnv {
		return ""
	}
	return " in " + env
}

// sameFlags says a suggested command takes the request's flags too: " with the same flags",
// or "" when it had none.
func sameFlags(in *intents.Intent) string {
	if len(in.Flags) == 0 {
		return ""
	}
	return " (with the same flags)"
}
