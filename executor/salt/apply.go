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

// tally counts an apply's progress.
type tally struct {
	done, changed int
	minions       []string
	failed        *executor.Change
}

// applyUnits runs units for real, one after the other, and stops at the first failure.
func (l *Layer) applyUnits(ctx context.Context, units []executor.Unit, total int, report func(executor.Event)) (tally, error) {
	var t tally
	seen := map[string]bool{}
	for _, u := range units {
		var firstErr error
		rets, err := l.runUnit(ctx, u, false, func(m minionReturn) {
			if !seen[m.Minion] {
				seen[m.Minion] = true
				t.minions = append(t.minions, m.Minion)
			}
			if m.Err != "" {
				if firstErr == nil {
					t.failed = &executor.Change{Unit: u.Service, Action: executor.Update, Address: m.Minion, Detail: m.Err}
					firstErr = fmt.Errorf("%s: minion %s: %s", u.Service, m.Minion, m.Err)
				}
				return
			}
			for _, s := range m.States {
				t.done++
				ev := executor.Event{Layer: executor.Salt, Unit: u.Service, Resource: m.Minion + ": " + s.display(),
					Action: executor.NoOp, Done: t.done, Total: total, Message: "unchanged", Time: l.now()}
				switch {
				case s.failed():
					ev.Action, ev.Message = executor.Update, "failed: "+firstLine(s.Comment)
				case s.Changed:
					t.changed++
					ev.Action, ev.Message = executor.Update, "changed"
				}
				if report != nil {
					report(ev)
				}
			}
			if s, bad := m.firstFailure(); bad && firstErr == nil {
				t.failed = &executor.Change{Unit: u.Service, Action: executor.Update, Address: m.Minion + ": " + s.display(), Detail: s.Comment}
				firstErr = fmt.Errorf("%s: %s on %s failed: %s", u.Service, s.display(), m.Minion, s.Comment)
			}
		})
		if err != nil {
			if t.failed == nil {
				t.failed = &executor.Change{Unit: u.Service, Action: executor.Update, Address: u.Service, Detail: err.Error()}
			}
			return t, fmt.Errorf("%s: %w", u.Service, err)
		}
		if firstErr != nil {
			return t, firstErr
		}
		executor.Log(ctx, l.log).Info("applied", "unit", u.Service, "minions", minionsOf(rets), "states", t.done, "changed", t.changed)
	}
	return t, nil
}
