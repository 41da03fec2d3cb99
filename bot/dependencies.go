package bot

import (
	"errors"
	"fmt"
	"sort"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// deployedDeps answers catalog.Request.Deployed from the declared state of one environment and
// remembers what it found, so compile can tell a dependency it changes from one it leaves alone.
type deployedDeps struct {
	e     *Engine
	env   string
	units map[string]executor.Unit
	err   error
}

func (e *Engine) deployedDeps(env string) *deployedDeps {
	return &deployedDeps{e: e, env: env, units: map[string]executor.Unit{}}
}

// values is the catalog's Deployed lookup: the declared values of service, if it is deployed.
func (d *deployedDeps) values(service string) (map[string]string, bool) {
	dep, err := d.e.st.Declared(d.env + "/" + service)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, false
	case err != nil:
		d.err = err
		return nil, false
	case dep.Destroyed || len(dep.Spec.Units) != 1:
		return nil, false
	}
	u := dep.Spec.Units[0]
	d.units[service] = u
	return u.Values, true
}

// dependency decides what the spec does with a rendered dependency that is deployed already: it
// keeps the unit only when the request changes its declared values, and then applies it to the
// hosts it was declared on rather than the request's. It reports whether to keep the unit.
func (d *deployedDeps) dependency(spec *executor.Spec, u *executor.Unit) bool {
	declared := d.units[u.Service]
	changes := valueChanges(declared.Values, u.Values)
	spec.Deployed = append(spec.Deployed, executor.Dependency{Service: u.Service, Reason: u.Reason, Changes: changes})
	if len(changes) == 0 {
		return false
	}
	if u.Salt != nil && declared.Salt != nil {
		u.Salt.Targets = declared.Salt.Targets
	}
	return true
}

// valueChanges lists the values that differ, by name: "--domain a.example.org → b.example.org",
// "--frontend-for unset → nextcloud".
func valueChanges(before, after map[string]string) []string { return noteChanges(before, after, nil) }

// noteChanges is valueChanges with note(name) after each change that has one: "--port 3001 →
// 3002 (Nomad)".
func noteChanges(before, after map[string]string, note func(name string) string) []string {
	names := map[string]bool{}
	for n := range before {
		names[n] = true
	}
	for n := range after {
		names[n] = true
	}
	var out []string
	for _, n := range sortedNames(names) {
		b, hadB := before[n]
		a, hasA := after[n]
		if hadB == hasA && a == b {
			continue
		}
		if !hadB {
			b = "unset"
		}
		if !hasA {
			a = "unset"
		}
		line := fmt.Sprintf("--%s %s → %s", n, b, a)
		if note != nil {
			if s := note(n); s != "" {
				line += " (" + s + ")"
			}
		}
		out = append(out, line)
	}
	return out
}

func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
