package bot

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// A plan compiled from every service of an environment (a destroy looks for the services that
// need its target) binds its approval to that listing too: the basis key ENV+everyService holds
// each service declared in ENV with its basis, one "service=basis" a line. When the listing
// differs just before the run applies, the request is compiled again: a new dependent makes a
// destroy refused (or, with --with-dependents, plan its removal too), so the plan is superseded
// and its request answered again; a service that changes nothing of the request (jenkins
// created beside a destroy of grafana) leaves the approval standing.

// everyService is the suffix of a basis key that lists an environment's services.
const everyService = "/*"

// listing is the basis entry of an environment's declared services.
func listing(deps []*store.Deployed) string {
	lines := make([]string, 0, len(deps))
	for _, d := range deps {
		_, service, _ := strings.Cut(d.Key, "/")
		lines = append(lines, service+"="+basisOf(d))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// listingNow is the listing of env as declared now.
func (e *Engine) listingNow(ctx context.Context, env string) (string, error) {
	all, err := e.st.AllDeclared(ctx)
	if err != nil {
		return "", err
	}
	return listing(declaredIn(all, env)), nil
}

// listingChanged names the services whose entries differ between two listings.
func listingChanged(was, now string) []string {
	entries := func(l string) map[string]string {
		out := map[string]string{}
		for _, line := range strings.Split(l, "\n") {
			if service, basis, ok := strings.Cut(line, "="); ok {
				out[service] = basis
			}
		}
		return out
	}
	a, b := entries(was), entries(now)
	var out []string
	for s, v := range b {
		if a[s] != v {
			out = append(out, s)
		}
	}
	for s := range a {
		if _, ok := b[s]; !ok {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// compilesTheSame reports whether approved plan p's request, compiled now, gives the spec p
// was planned from. A request Eos cannot compile again (a plan proposed by Eos itself, a
// refusal now) does not.
func (e *Engine) compilesTheSame(ctx context.Context, p *store.Plan) bool {
	in, err := e.parser.Parse(p.Text)
	if err != nil || !compiled[in.Verb] {
		return false
	}
	spec, _, err := e.compileRead(ctx, in)
	if err != nil {
		return false
	}
	return sameSpec(spec, p.Plan.Spec)
}

// compiled are the verbs whose plans are compiled from the request (request.go).
var compiled = map[intents.Verb]bool{intents.VerbCreate: true, intents.VerbUpdate: true, intents.VerbDestroy: true, intents.VerbOperation: true}

// sameSpec compares two specs as compiled, leaving out the declared changes the engine adds
// after compiling (they follow the declared state, which the rest of the basis binds).
func sameSpec(a, b executor.Spec) bool {
	a.Changes, b.Changes = nil, nil
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
