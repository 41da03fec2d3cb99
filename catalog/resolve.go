package catalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Resolve renders the target and, recursively, everything it requires: dependencies first, each
// service once, in manifest order otherwise. It is the list an executor.Spec is built from.
// Dependencies are rendered in req's environment and Terraform variant: one req.Deployed says
// is deployed from its declared values plus the flags its requirement sets, any other from its
// defaults plus those flags.
//
// A service required twice with different values is an error naming both requesters, as is a
// cycle (Load rejects cycles, so only a hand-built catalog can have one).
func (c *Catalog) Resolve(b *Blueprint, req Request) ([]*Rendered, error) {
	r := &resolver{c: c, seen: map[string]seen{}, active: map[string]bool{}}
	if err := r.visit(b, req, false, nil); err != nil {
		return nil, err
	}
	return r.out, nil
}

type seen struct {
	rendered *Rendered
	by       string // who asked for it first: "" for the target
}

type resolver struct {
	c      *Catalog
	out    []*Rendered
	seen   map[string]seen
	active map[string]bool
}

func (r *resolver) visit(b *Blueprint, req Request, deployed bool, chain []string) error {
	key := b.label()
	chain = append(chain, key)
	if r.active[key] {
		return fmt.Errorf("dependency cycle: %s", strings.Join(chain, " → "))
	}
	rendered, err := b.Render(req)
	if err != nil {
		return err
	}
	rendered.Deployed = deployed
	if err := r.checkServices(b, rendered); err != nil {
		return err
	}
	by := ""
	if len(chain) > 1 {
		by = chain[len(chain)-2]
	}
	if prev, ok := r.seen[key]; ok {
		if sameValues(prev.rendered.Values, rendered.Values) {
			return nil
		}
		return &RequestError{Blueprint: key, Message: fmt.Sprintf(
			"required twice with different flags: %s (by %s) and %s (by %s)",
			sortedFlagText(prev.rendered.Values), requester(prev.by), sortedFlagText(rendered.Values), requester(by))}
	}
	r.active[key] = true
	for _, rq := range rendered.Requires {
		dep, ok := r.c.Service(rq.Service)
		if !ok {
			return fmt.Errorf("blueprint %s requires %q, which is not in the catalog", b.Source, rq.Service)
		}
		depReq, deployed := dependencyRequest(dep, rq, req)
		if err := r.visit(dep, depReq, deployed, chain); err != nil {
			var re *RequestError
			if errors.As(err, &re) {
				return &RequestError{Blueprint: re.Blueprint, Message: fmt.Sprintf("%s (brought in by %s because %s)", re.Message, key, rq.Because)}
			}
			return fmt.Errorf("%s, required by %s because %s: %w", rq.Service, key, rq.Because, err)
		}
	}
	delete(r.active, key)
	r.seen[key] = seen{rendered: rendered, by: by}
	r.out = append(r.out, rendered)
	return nil
}

// dependencyRequest is what dep is rendered with when rq brings it into req: its declared
// values, if req.Deployed says it is deployed, with the requirement's flags on top.
func dependencyRequest(dep *Blueprint, rq Required, req Request) (Request, bool) {
	out := Request{Flags: rq.Flags, Env: req.Env, Variant: req.Variant, Deployed: req.Deployed}
	if req.Deployed == nil {
		return out, false
	}
	values, ok := req.Deployed(dep.Name)
	if !ok {
		return out, false
	}
	out.Flags = dep.DeclaredFlags(values)
	for name, v := range rq.Flags {
		out.Flags[name] = v
	}
	return out, true
}

func requester(by string) string {
	if by == "" {
		return "the request"
	}
	return by
}

// checkServices reports service-typed values that name no service of the catalog.
func (r *resolver) checkServices(b *Blueprint, rendered *Rendered) error {
	for _, f := range b.Flags {
		v, ok := rendered.Values[f.Name]
		if !ok || f.Type != Service {
			continue
		}
		if _, found := r.c.Service(v.Text); !found {
			return b.requestErr("--%s: no service %q in the catalog (%s)", f.Name, v.Text, strings.Join(r.c.ServiceNames(), ", "))
		}
	}
	for _, a := range b.Args {
		v := rendered.Values[a.Name]
		if a.Type != Service {
			continue
		}
		if _, found := r.c.Service(v.Text); !found {
			return b.requestErr("%s: no service %q in the catalog (%s)", strings.ToUpper(a.Name), v.Text, strings.Join(r.c.ServiceNames(), ", "))
		}
	}
	return nil
}

func sameValues(a, b map[string]Value) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || va.Type != vb.Type || va.Text != vb.Text {
			return false
		}
	}
	return true
}

// sortedFlagText lists flags as "--name value" for messages, sorted by name.
func sortedFlagText(flags map[string]Value) string {
	names := make([]string, 0, len(flags))
	for n := range flags {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "--" + n + " " + flags[n].Text
	}
	if len(parts) == 0 {
		return "no flags"
	}
	return strings.Join(parts, " ")
}
