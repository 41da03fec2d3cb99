// Package compile turns a parsed request into the declarative Spec it asks for: the intent,
// the blueprint catalog and the declared state of its environment in, an executor.Spec out
// (dependencies first, a destroy's dependents before it). It reads the declared state through
// State, which it declares, and posts nothing: a request it turns away is a *Refusal, whose
// text the engine says as it is.
//
// It imports catalog, executor and intents, never the engine (bot) nor its store.
package compile

import (
	"fmt"
	"log/slog"
	"strings"

	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// Deployed is one service's declared state, as compile reads it.
type Deployed struct {
	// RunID is the run that declared it.
	RunID string
	// Destroyed is true after a successful destroy.
	Destroyed bool
	// Spec is the declared spec: one unit, the service's.
	Spec executor.Spec
}

// State is the declared state compile reads.
type State interface {
	// Declared is the declared state of service in env; ok is false when none was ever
	// recorded.
	Declared(env, service string) (d Deployed, ok bool, err error)
	// DeclaredIn is the declared state of every service ever recorded in env, destroyed ones
	// included.
	DeclaredIn(env string) ([]Deployed, error)
}

// Refusal is a request compile turns away; Msg is meant for the person who asked. Secret marks
// a request in which someone typed a secret, whose message is taken down where the platform
// allows.
type Refusal struct {
	Msg    string
	Secret bool
}

func (r *Refusal) Error() string { return r.Msg }

func refuse(format string, args ...any) error { return &Refusal{Msg: fmt.Sprintf(format, args...)} }

// Compiler compiles requests against one catalog and one declared state.
type Compiler struct {
	Catalog *catalog.Catalog
	State   State
	// DefaultEnv is the environment of a request that names none.
	DefaultEnv string
	// Variants names the Terraform variant of each environment.
	Variants map[string]string
	// SecretsPath is where generated secrets live in Vault, with {env}, {service} and {name}
	// placeholders; SecretsConfigured says whether this Eos has a Vault.
	SecretsPath       string
	SecretsConfigured bool
	// InFlight is the sentence to add to an answer about service in env that its declared
	// state alone decides while a run on it is under way, or "" when none is.
	InFlight func(env, service string) string
	// Log receives what compile notices but does not refuse (a deployed service no longer in
	// the catalog).
	Log *slog.Logger
}

// Compile turns an intent into the declarative Spec it asks for: the blueprint rendered with
// the typed flags (merged over the declared ones for update), dependencies first. A dependency
// deployed already is rendered from its declared values plus the flags its requires block sets,
// and left out of the units when that changes none of them. Destroy compiles to the declared
// state with every unit marked for removal (see compileDestroy). The spec records what the
// request set (Spec.Asked), which the preview's first line repeats.
func (c *Compiler) Compile(in *intents.Intent) (executor.Spec, error) {
	spec, err := c.compileSpec(in)
	if err != nil {
		return executor.Spec{}, err
	}
	if bp, err := c.blueprint(in); err == nil {
		spec.Asked = AskedOf(bp, in)
	}
	return spec, nil
}

func (c *Compiler) compileSpec(in *intents.Intent) (executor.Spec, error) {
	env := in.Env
	if env == "" {
		env = c.DefaultEnv
	}
	bp, err := c.blueprint(in)
	if err != nil {
		return executor.Spec{}, err
	}
	verb := in.VerbWord()
	if err := c.refuseSecrets(bp, in, env); err != nil {
		return executor.Spec{}, err
	}
	declared, found, err := c.State.Declared(env, bp.Name)
	deployed := err == nil && found && !declared.Destroyed
	if err != nil {
		return executor.Spec{}, err
	}
	// An answer the declared state alone decides names a run under way on the service, which
	// may change it.
	switch {
	case in.Verb == intents.VerbDestroy && !deployed:
		return executor.Spec{}, refuse("%s is not deployed in %s: nothing to destroy.%s", bp.Name, env, c.inFlightAfter(" ", env, bp.Name))
	case in.Verb == intents.VerbDestroy:
		return c.compileDestroy(in, bp, env, declared)
	case in.Verb == intents.VerbCreate && deployed:
		return executor.Spec{}, refuse("%s is already deployed in %s (run %s). To change it: @eos update %s --flag value%s%s", bp.Name, env, declared.RunID, bp.Name, c.inEnv(env), c.inFlightAfter(" · ", env, bp.Name))
	case in.Verb == intents.VerbUpdate && !deployed:
		return executor.Spec{}, refuse("%s is not deployed in %s yet. To deploy it: @eos create %s%s%s%s", bp.Name, env, bp.Name, sameFlags(in), c.inEnv(env), c.inFlightAfter(" · ", env, bp.Name))
	}
	deps := c.deployedDeps(env)
	req := catalog.Request{Flags: map[string]catalog.Value{}, Args: in.Args, Env: env, Variant: c.Variants[env], Deployed: deps.values}
	if in.Verb == intents.VerbUpdate {
		req.Flags = bp.DeclaredFlags(declared.Spec.Units[0].Values)
	}
	for _, f := range in.Flags {
		req.Flags[f.Name] = f.Value
	}
	rendered, err := c.Catalog.Resolve(bp, req)
	if deps.err != nil {
		return executor.Spec{}, deps.err
	}
	if err != nil {
		return executor.Spec{}, &Refusal{Msg: err.Error()}
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

func (c *Compiler) blueprint(in *intents.Intent) (*catalog.Blueprint, error) {
	if in.Verb == intents.VerbOperation {
		if bp, ok := c.Catalog.Operation(in.Operation, in.Noun); ok {
			return bp, nil
		}
		return nil, refuse("there is no operation %q %q in the catalog · @eos help %s", in.Operation, in.Noun, in.Operation)
	}
	if bp, ok := c.Catalog.Service(in.Noun); ok {
		return bp, nil
	}
	return nil, refuse("unknown service %q · Services: %s", in.Noun, strings.Join(c.Catalog.ServiceNames(), ", "))
}

// refuseSecrets turns away a secret typed in chat, saying where Eos keeps the generated one,
// or, without Vault, that it keeps none.
func (c *Compiler) refuseSecrets(bp *catalog.Blueprint, in *intents.Intent, env string) error {
	for _, f := range in.Flags {
		fl, ok := bp.Flag(f.Name)
		if !ok || !fl.Secret {
			continue
		}
		what := strings.ReplaceAll(f.Name, "-", " ")
		path := c.secretPath(env, bp.Name, strings.ReplaceAll(f.Name, "-", "_"))
		msg := fmt.Sprintf("Secrets are never typed in chat: I generate %s's %s and keep it in Vault at %s.", bp.Name, what, path)
		if !c.SecretsConfigured {
			msg = fmt.Sprintf("Secrets are never typed in chat: with Vault configured I generate %s's %s and keep it at %s; "+
				"this Eos has no Vault, so it keeps none.", bp.Name, what, path)
		}
		return &Refusal{Secret: true, Msg: msg + fmt.Sprintf(" Ask again without --%s.", f.Name)}
	}
	return nil
}

func (c *Compiler) secretPath(env, service, name string) string {
	return strings.NewReplacer("{env}", env, "{service}", service, "{name}", name).Replace(c.SecretsPath)
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
func (c *Compiler) inEnv(env string) string {
	if env == c.DefaultEnv {
		return ""
	}
	return " in " + env
}

// inFlightAfter is InFlight's sentence after sep, which follows what it is added to (" " after
// a sentence, " · " after a command), or "" when no run holds the service.
func (c *Compiler) inFlightAfter(sep, env, service string) string {
	if c.InFlight == nil {
		return ""
	}
	if s := c.InFlight(env, service); s != "" {
		return sep + s
	}
	return ""
}

// sameFlags says a suggested command takes the request's flags too: " with the same flags",
// or "" when it had none.
func sameFlags(in *intents.Intent) string {
	if len(in.Flags) == 0 {
		return ""
	}
	return " (with the same flags)"
}
