package compile

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// requirer is a deployed service that needs another one, and why ("--sso").
type requirer struct{ service, because string }

// compileDestroy compiles `destroy SERVICE`: its declared state with every unit marked for
// removal. A service other deployed services of the environment require is refused, naming
// them, unless --with-dependents asks to remove them too: then they come first in the spec
// (the executor applies units in spec order, destroys included), each after the services that
// require it in turn, and the whole spec goes under the destroy policy of the environment.
func (c *Compiler) compileDestroy(in *intents.Intent, bp *catalog.Blueprint, env string, declared Deployed) (executor.Spec, error) {
	all, err := c.State.DeclaredIn(env)
	if err != nil {
		return executor.Spec{}, err
	}
	inEnv := map[string]executor.Unit{}
	for _, d := range all {
		if len(d.Spec.Units) == 1 {
			inEnv[d.Spec.Units[0].Service] = d.Spec.Units[0]
		}
	}
	needs, err := c.requirers(env, inEnv)
	if err != nil {
		return executor.Spec{}, err
	}
	withDependents := false
	if v, ok := in.Flag(intents.WithDependentsFlag); ok && v.Bool {
		withDependents = true
	}
	if rs := needs[bp.Name]; len(rs) > 0 && !withDependents {
		return executor.Spec{}, refuse("%s is required by %s: destroy those first, or add --with-dependents to plan their removal too",
			bp.Name, requiredBy(rs, env))
	}
	spec := executor.Spec{Verb: in.VerbWord(), Target: bp.Name, Env: env}
	if v, ok := in.Flag("purge-secrets"); ok && v.Bool {
		spec.PurgeSecrets = true
	}
	if v, ok := in.Flag(intents.PurgeDataFlag); ok && v.Bool {
		spec.PurgeData = true
	}
	for _, d := range dependentsFirst(bp.Name, needs) {
		u := inEnv[d.service]
		u.Destroy, u.Reason = true, fmt.Sprintf("it requires %s for %s", d.of, d.because)
		spec.Units = append(spec.Units, u)
	}
	for _, u := range declared.Spec.Units {
		u.Destroy, u.Reason = true, "" // the target, even if a request once brought it in
		spec.Units = append(spec.Units, u)
	}
	return spec, nil
}

// requirers maps each service to the deployed services of env that require it. Who requires
// what is read from the declared state: each deployed service's blueprint's requires blocks,
// evaluated against its declared values (was it deployed with --sso?), never its flag defaults.
func (c *Compiler) requirers(env string, deployed map[string]executor.Unit) (map[string][]requirer, error) {
	out := map[string][]requirer{}
	for _, name := range sortedUnits(deployed) {
		u := deployed[name]
		if u.Destroy {
			continue
		}
		bp, ok := c.Catalog.Service(u.Service)
		if !ok {
			c.log().Warn("a deployed service is no longer in the catalog: its dependencies are unknown", "service", u.Service, "env", env)
			continue
		}
		rqs, err := bp.Requirements(catalog.Request{Flags: bp.DeclaredFlags(u.Values), Env: env, Variant: c.Variants[env]})
		if err != nil {
			return nil, fmt.Errorf("reading what %s in %s requires: %w", u.Service, env, err)
		}
		for _, rq := range rqs {
			out[rq.Service] = append(out[rq.Service], requirer{service: u.Service, because: rq.Because})
		}
	}
	return out, nil
}

func (c *Compiler) log() *slog.Logger {
	if c.Log == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return c.Log
}

func sortedUnits(m map[string]executor.Unit) []string {
	set := make(map[string]bool, len(m))
	for n := range m {
		set[n] = true
	}
	return sortedNames(set)
}

// dependent is a service to remove before the one it requires (of).
type dependent struct{ service, of, because string }

// dependentsFirst lists everything that requires target, directly or through another
// dependent, in an order that removes each service before the ones it requires. The target
// itself is not in the list.
func dependentsFirst(target string, needs map[string][]requirer) []dependent {
	var out []dependent
	seen := map[string]bool{target: true}
	var visit func(service string, via dependent)
	visit = func(service string, via dependent) {
		seen[service] = true
		for _, r := range needs[service] {
			if !seen[r.service] {
				visit(r.service, dependent{service: r.service, of: service, because: r.because})
			}
		}
		if service != target {
			out = append(out, via)
		}
	}
	visit(target, dependent{})
	return out
}

// requiredBy names who requires a service: "nextcloud in local (for --sso)", or for several
// "grafana (for --sso) and nextcloud (for --sso) in local".
func requiredBy(rs []requirer, env string) string {
	if len(rs) == 1 {
		return fmt.Sprintf("%s in %s (for %s)", rs[0].service, env, rs[0].because)
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%s (for %s)", r.service, r.because)
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + " in " + env
}
