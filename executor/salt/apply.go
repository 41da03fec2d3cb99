package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/eosbot/eos/executor"
)

// Apply runs each unit's state for real on its targets, unit by unit, reporting every state of
// every minion's return as a progress event in execution order. The first failed state (or a
// minion that returned no states) fails the layer with Salt's comment; later units do not run.
func (l *Layer) Apply(ctx context.Context, spec executor.Spec, plan executor.LayerPlan, report func(executor.Event)) (executor.LayerResult, error) {
	start := l.now()
	res := executor.LayerResult{Layer: executor.Salt}
	var ps planState
	if len(plan.State) > 0 {
		_ = json.Unmarshal(plan.State, &ps)
	}
	units := saltUnits(spec)
	if len(units) == 0 {
		res.Status, res.Summary = executor.ResultSkipped, keptNote
		return res, nil
	}
	tally, err := l.applyUnits(ctx, units, ps.States, report)
	res.Done, res.Total, res.Elapsed = tally.done, max(ps.States, tally.done), l.now().Sub(start)
	if err != nil {
		res.Status, res.Failed, res.Error = executor.ResultFailed, tally.failed, err.Error()
		if ctx.Err() != nil {
			res.Status = executor.ResultCancelled
		}
		return res, err
	}
	res.Status = executor.ResultOK
	res.Summary = fmt.Sprintf("%s on %s, %d changed", plural(tally.done, "state"), strings.Join(tally.minions, ", "), tally.changed)
	return res, nil
}

// Rollback re-applies the previous spec's Salt states for the spec's units, which is safe:
// states are idempotent. Without a previous spec nothing is undone (Salt has no undo), and the
// states stay.
func (l *Layer) Rollback(ctx context.Context, spec executor.Spec, previous *executor.Spec, report func(executor.Event)) (string, error) {
	var units []executor.Unit
	var names []string
	if previous != nil {
		for _, u := range spec.Units {
			for _, p := range saltUnits(*previous) {
				if p.Service == u.Service {
					units = append(units, p)
					names = append(names, p.Service)
				}
			}
		}
	}
	if len(units) == 0 {
		return "Salt states kept (re-apply is safe)", nil
	}
	if _, err := l.applyUnits(ctx, units, 0, report); err != nil {
		return "re-applying the previous Salt states failed", err
	}
	return "re-applied the previous Salt states of " + strings.Join(names, ", "), nil
}

// applyUnits runs units for real, one after the other, and stops at the first failure. total
// is the number of states the plan saw (0 if unknown), the events' Total.
func (l *Layer) applyUnits(ctx context.Context, units []executor.Unit, total int, report func(executor.Event)) (tally, error) {
	t := &tally{}
	for _, u := range units {
		p := newUnitProgress(l, u.Service, t, total, report)
		rets, err := l.runUnit(ctx, u, false, &watch{state: p.state, ret: p.ret})
		if err != nil {
			if t.failed == nil {
				t.failed = &executor.Change{Unit: u.Service, Action: executor.Update, Address: u.Service, Detail: err.Error()}
			}
			return *t, fmt.Errorf("%s: %w", u.Service, err)
		}
		if p.err != nil {
			return *t, p.err
		}
		executor.Log(ctx, l.log).Info("applied", "unit", u.Service, "minions", minionsOf(rets), "states", t.done, "changed", t.changed, "streamed", p.streamed)
	}
	return *t, nil
}
