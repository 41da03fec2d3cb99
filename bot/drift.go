package bot

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// driftTimeout bounds one service's drift check unless a digest says otherwise.
const driftTimeout = 5 * time.Minute

// scan bounds a drift scan.
type scan struct {
	// parallelism is how many services are checked at once; below 1 means the number of cores.
	parallelism int
	// timeout bounds one service's check over every layer; 0 means driftTimeout.
	timeout time.Duration
}

// drift answers `drift [service] [in env]`: every declared service checked against the real
// world, in parallel up to the number of cores.
func (e *Engine) drift(ctx context.Context, c conv, in *intents.Intent) answer {
	if len(in.Args) > 0 && in.Args[0].Text == "history" {
		return e.driftHistory(ctx, c, in)
	}
	if len(in.Args) > 0 && in.Args[0].Text == "snoozed" {
		return e.driftSnoozed(ctx, c, in)
	}
	all, err := e.st.AllDeclared(ctx)
	if err != nil {
		return e.fail(c, "reading declared state", err)
	}
	var todo []*store.Deployed
	for _, d := range all {
		env, service, _ := strings.Cut(d.Key, "/")
		if (in.Noun == "" || service == in.Noun) && (in.Env == "" || env == in.Env) {
			todo = append(todo, d)
		}
	}
	if len(todo) == 0 {
		doc := render.NothingToDrift()
		if in.Noun != "" { // a run creating it now may change the answer (inflight.go)
			doc = render.Reply(doc.Plain() + e.inFlightAfter(ctx, " · ", e.envOf(in), in.Noun))
		}
		return said(doc)
	}
	results := e.checkDrift(ctx, todo, scan{}, nil)
	e.recordDrift(ctx, results, e.now())
	// The answer is posted here, not returned: each drifted service gets a reply of its own
	// under it (postDetails), which a 🔧, 📥 or 🔕 on it triages.
	headline := e.say(ctx, c.adapter, c.msg.Post, render.Drift(results, e.now(), e.liveSnoozes(ctx)))
	var listed []render.ServiceDrift
	for _, r := range results {
		if r.Status != executor.DriftClean {
			listed = append(listed, r)
		}
	}
	e.postDetails(ctx, c.adapter, "drift", headline, listed)
	return answer{}
}

// checkDrift checks every service, sc.parallelism at once, each within sc.timeout, and calls
// progress (when not nil) with the number done after each. The results are in service order.
func (e *Engine) checkDrift(ctx context.Context, todo []*store.Deployed, sc scan, progress func(done int)) []render.ServiceDrift {
	limit, timeout := sc.parallelism, sc.timeout
	if limit < 1 {
		limit = runtime.NumCPU()
	}
	if timeout <= 0 {
		timeout = driftTimeout
	}
	results := make([]render.ServiceDrift, len(todo))
	var g errgroup.Group
	g.SetLimit(limit)
	var mu sync.Mutex
	done := 0
	for i, d := range todo {
		g.Go(func() error {
			defer func() {
				mu.Lock()
				defer mu.Unlock()
				done++
				if progress != nil {
					progress(done)
				}
			}()
			dctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			env, service, _ := strings.Cut(d.Key, "/")
			layers := e.cfg.Runner.Drift(dctx, d.Spec)
			results[i] = render.ServiceDrift{Service: service, Env: env, Status: overall(layers), Layers: layers}
			return nil
		})
	}
	g.Wait()
	sort.Slice(results, func(i, j int) bool {
		if results[i].Service != results[j].Service {
			return results[i].Service < results[j].Service
		}
		return results[i].Env < results[j].Env
	})
	return results
}

// overall is drifted if any layer drifted, unknown if any check failed, else clean.
func overall(layers []executor.LayerDrift) executor.DriftStatus {
	status := executor.DriftClean
	for _, l := range layers {
		switch l.Status {
		case executor.DriftDrifted:
			return executor.DriftDrifted
		case executor.DriftUnknown:
			status = executor.DriftUnknown
		}
	}
	return status
}

// rollback answers `rollback SERVICE`: a plan that re-applies the state declared before the
// latest run, approved like any other.
func (e *Engine) rollback(ctx context.Context, c conv, in *intents.Intent) answer {
	env := e.envOf(in)
	key := env + "/" + in.Noun
	cur, err := e.st.Declared(ctx, key)
	if err != nil || cur.Destroyed {
		return said(render.NothingDeclared(in.Noun, env, "nothing to roll back to", e.inFlightAfter(ctx, " ", env, in.Noun)))
	}
	earlier, err := e.appliedStates(ctx, env, in.Noun)
	if err != nil {
		return e.fail(c, "reading history", err)
	}
	var now *executor.Unit
	if u := targetUnit(cur.Spec); u != nil {
		now = u
	}
	var pick *appliedState
	if len(in.Args) > 0 {
		id := in.Args[0].Text
		i := slices.IndexFunc(earlier, func(a appliedState) bool { return a.run.ID == id })
		switch {
		case id == cur.RunID:
			return said(render.RunIsCurrent(id, in.Noun, env))
		case i < 0:
			return said(render.RunDidNotApply(id, in.Noun, env))
		}
		if now != nil && maps.Equal(earlier[i].unit.Values, now.Values) {
			return said(render.RunValuesCurrent(id, in.Noun, env))
		}
		pick = &earlier[i]
	} else {
		// The latest state before the current one that differs from it: a reconcile or adopt
		// that re-applied the same values is not a state to return to.
		for i := range earlier {
			a := &earlier[i]
			if a.run.ID == cur.RunID || !a.run.Started.Before(cur.At) {
				continue
			}
			if now != nil && maps.Equal(a.unit.Values, now.Values) {
				continue
			}
			pick = a
			break
		}
	}
	if pick == nil {
		return said(render.NoEarlierState(in.Noun, env, cur.RunID))
	}
	spec := executor.Spec{Verb: "rollback", Target: in.Noun, Env: env, Units: []executor.Unit{pick.unit},
		Asked:     []string{"to", pick.run.ID},
		ReturnsTo: fmt.Sprintf("run %s of %s", pick.run.ID, pick.run.Finished.UTC().Format("Mon 02 Jan 15:04 UTC"))}
	return answerOf(e.propose(ctx, c, spec, store.PlanPending))
}

// appliedState is a unit's state as one successful run applied it.
type appliedState struct {
	run  *store.Run
	unit executor.Unit
}

// appliedStates are the states successful runs applied to service in env, newest first.
func (e *Engine) appliedStates(ctx context.Context, env, service string) ([]appliedState, error) {
	runs, err := e.st.Runs(ctx, func(r *store.Run) bool { return r.Env == env && r.State == store.RunDone && r.Verb != "destroy" })
	if err != nil {
		return nil, err
	}
	var out []appliedState
	for _, r := range runs {
		p, err := e.st.Plan(ctx, r.ID)
		if err != nil {
			continue
		}
		for _, u := range p.Plan.Spec.Units {
			if u.Service == service && !u.Destroy {
				out = append(out, appliedState{run: r, unit: u})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].run.Started.After(out[j].run.Started) })
	return out, nil
}

// driftHistory answers `drift history SERVICE`: the service's recent checks.
func (e *Engine) driftHistory(ctx context.Context, c conv, in *intents.Intent) answer {
	if in.Noun == "" {
		return said(render.NameAService())
	}
	key := e.envOf(in) + "/" + in.Noun
	hist, err := e.st.DriftHistory(ctx, key, 10)
	if err != nil {
		return e.fail(c, "reading drift history", err)
	}
	if len(hist) == 0 {
		return said(render.NotCheckedYet(key, in.Noun))
	}
	var rows [][]string
	for i := len(hist) - 1; i >= 0; i-- {
		h := hist[i]
		rows = append(rows, []string{h.At.UTC().Format("Mon 02 Jan 15:04"), h.Status, h.Summary})
	}
	return said(render.DriftHistory(key, rows))
}

// reconcile answers `reconcile SERVICE`: an ordinary plan that re-applies the declared state.
func (e *Engine) reconcile(ctx context.Context, c conv, in *intents.Intent) answer {
	return answerOf(e.reconcileService(ctx, c, e.envOf(in), in.Noun))
}

// reconcileService proposes re-applying the declared state of service in env, for `reconcile`
// and for a 🔧 on a drift digest. It returns the plan's id, or "" when none was stored, and
// what to answer.

func (e *Engine) reconcileService(ctx context.Context, c conv, env, service string) (string, answer) {
	d, err := e.st.Declared(ctx, env+"/"+service)
	if err != nil || d.Destroyed {
		return "", said(render.NothingDeclared(service, env, "nothing to reconcile", " @eos status"+e.inFlightAfter(ctx, " · ", env, service)))
	}
	spec := d.Spec
	spec.Verb, spec.Asked, spec.Changes, spec.ReturnsTo = "reconcile", nil, nil, "" // nothing asked but the declared state
	return e.propose(ctx, c, spec, store.PlanPending)
}

// liveSnoozes are the snoozes recorded, by env/service; whether one still holds is the
// reader's to check (Snooze.Holds).
func (e *Engine) liveSnoozes(ctx context.Context) map[string]store.Snooze {
	all, err := e.st.Snoozes(ctx)
	if err != nil {
		e.log.Warn("reading snoozes", "err", err)
	}
	out := make(map[string]store.Snooze, len(all))
	for _, sn := range all {
		out[sn.Key] = sn
	}
	return out
}
