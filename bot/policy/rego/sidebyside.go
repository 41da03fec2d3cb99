package rego

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	opa "github.com/open-policy-agent/opa/v1/rego"
)

// Judging a big plan's packages side by side.
//
// A set's rules are evaluated by one prepared query over the whole of data.eos, on one core.
// For a big plan (the example library over 720 changes: a few milliseconds), that leaves the
// machine's other cores idle while a person waits for the preview. So a set whose rules live
// in two or more packages below eos (eos.public_ssh, eos.change_window, …) also prepares one
// query per such package, a unit, and Judge evaluates the units of a plan of sideBySideFrom
// changes or more on up to GOMAXPROCS goroutines. Each goroutine has a lazy document of its
// own (OPA's lazy objects remember what they converted and are not safe for concurrent use),
// built from the changes' hashes computed once; each takes the next unit, the dearest first
// by the time it took before, until none is left. The decisions are the same as the one
// query's: the same rules over the same document, each unit's document walked under its own
// package name.

// sideBySideFrom is the number of changes from which a plan's units are judged side by side:
// below it one query costs less than a second document.
var sideBySideFrom = 256

// unit is one package directly below eos, and its sub-packages, with its own prepared query.
type unit struct {
	name  string // "public_ssh"
	query opa.PreparedEvalQuery
	// cost is how long the unit's last evaluations took (nanoseconds, a moving average):
	// the dearest start first, so that the last to finish is a cheap one.
	cost atomic.Int64
}

// prepareUnits prepares one query per package directly below eos, when the compiled set's
// rules live in two or more of them and none in package eos itself (whose rules every unit's
// query would leave out).
func prepareUnits(ctx context.Context, c *ast.Compiler) ([]*unit, error) {
	names := map[string]bool{}
	for _, m := range c.Modules {
		pkg := strings.TrimPrefix(m.Package.Path.String(), "data.")
		if pkg == root {
			return nil, nil
		}
		if rest, ok := strings.CutPrefix(pkg, root+"."); ok {
			names[strings.SplitN(rest, ".", 2)[0]] = true
		}
	}
	if len(names) < 2 {
		return nil, nil
	}
	var units []*unit
	for _, name := range slices.Sorted(maps.Keys(names)) {
		q, err := opa.New(opa.Query(ast.Ref{ast.DefaultRootDocument, ast.StringTerm(root), ast.StringTerm(name)}.String()),
			opa.Compiler(c), opa.StrictBuiltinErrors(true)).PrepareForEval(ctx)
		if err != nil {
			return nil, fmt.Errorf("preparing the policy query of %s.%s: %w", root, name, err)
		}
		units = append(units, &unit{name: name, query: q})
	}
	return units, nil
}

// sideBySide reports whether a plan whose changes hashes holds is judged unit by unit.
func (s *Set) sideBySide(hashes changeHashes) bool {
	if len(s.units) < 2 || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	n := 0
	for _, h := range hashes {
		n += len(h)
	}
	return n >= sideBySideFrom
}

// evalUnits evaluates every unit over document doc, side by side, and returns the decisions
// each unit's document holds; the first error (in the units' order) fails them all.
func (s *Set) evalUnits(ctx context.Context, doc map[string]any, hashes changeHashes) ([]Decision, error) {
	// The dearest first, by the costs as they are now (other judgements update them).
	costs := make(map[*unit]int64, len(s.units))
	for _, u := range s.units {
		costs[u] = u.cost.Load()
	}
	order := slices.Clone(s.units)
	slices.SortStableFunc(order, func(a, b *unit) int { return cmp.Compare(costs[b], costs[a]) })
	docs := make([]map[string]any, len(order))
	errs := make([]error, len(order))
	var next atomic.Int64
	work := func() {
		v := lazyDocument(doc, hashes)
		for {
			i := int(next.Add(1) - 1)
			if i >= len(order) {
				return
			}
			u := order[i]
			start := time.Now()
			rs, err := s.eval(ctx, u.query, v)
			took := int64(time.Since(start))
			u.cost.Store((3*u.cost.Load() + took) / 4)
			docs[i], errs[i] = resultDoc(rs), err
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(order)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	var out []Decision
	for i, u := range order {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = s.walk(root+"."+u.name, docs[i], out)
	}
	return out, nil
}
