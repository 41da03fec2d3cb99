package salt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/eosbot/eos/executor"
)

// Apply runs each unit's state for real on its targets, unit by unit, reporting every state of
// every minion's return as a progress event in execution order. The first failed state (or a
// minion that returned no states) fails the layer with Salt's comment; later units do not run.
func (l *Layer) Apply(ctx context.Context, spec executor.Spec, plan executor.LayerPlan, obs executor.Observer) (executor.LayerResult, error) {
	obs = executor.Heard(obs)
	start := l.now()
	res := executor.LayerResult{Layer: executor.Salt}
	var ps planState
	if len(plan.State) > 0 {
		_ = json.Unmarshal(plan.State, &ps)
	}
	units := saltUnits(spec)
	if len(units) == 0 && spec.PurgeData {
		units = ps.Purge // a destroy --purge-data removes what its plan said (purge.go)
	}
	if spec.Adopt {
		// An adopt's plan never has Salt changes (planAdopt); this holds even for a plan
		// that says otherwise.
		res.Status, res.Summary = executor.ResultSkipped, "not applied by an adopt"
		return res, nil
	}
	if len(units) == 0 {
		res.Status, res.Summary = executor.ResultSkipped, keptNote
		return res, nil
	}
	joined := l.reportNewcomers(ctx, units, ps.Targets, obs.Event)
	tally, err := l.applyUnits(ctx, units, ps.Targets, ps.States, obs)
	res.Done, res.Total, res.Elapsed = tally.done, max(ps.States, tally.done), l.now().Sub(start)
	var unknown *executor.UnknownError
	switch {
	case errors.As(err, &unknown):
		// Nothing failed that Eos saw: the runner neither rolls back nor calls it applied.
		res.Status, res.Error, res.Check = executor.ResultUnknown, unknown.Message(), unknown.Check
		return res, err
	case err != nil:
		res.Status, res.Failed, res.Error = executor.ResultFailed, tally.failed, err.Error()
		if ctx.Err() != nil {
			res.Status = executor.ResultCancelled
		}
		return res, err
	}
	res.Status = executor.ResultOK
	res.Summary = fmt.Sprintf("%s on %s, %d changed", plural(tally.done, "state"), strings.Join(tally.minions, ", "), tally.changed)
	if len(joined) > 0 {
		res.Summary += fmt.Sprintf("; %s joined since the plan, not configured (plan again to include it)", strings.Join(joined, ", "))
	}
	return res, nil
}

// Rollback re-applies the previous spec's Salt states for the spec's units, which is safe:
// states are idempotent. Without a previous spec nothing is undone (Salt has no undo), and the
// states stay.
func (l *Layer) Rollback(ctx context.Context, spec executor.Spec, previous *executor.Spec, obs executor.Observer) (string, error) {
	obs = executor.Heard(obs)
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
	if _, err := l.applyUnits(ctx, units, nil, 0, obs); err != nil {
		if unknown := (*executor.UnknownError)(nil); errors.As(err, &unknown) {
			return "re-applying the previous Salt states: outcome unknown", fmt.Errorf("re-applying the previous Salt states of %s: %s (check: %s)",
				strings.Join(names, ", "), unknown.Message(), unknown.Check)
		}
		return "re-applying the previous Salt states failed", err
	}
	return "re-applied the previous Salt states of " + strings.Join(names, ", "), nil
}

// applyUnits runs units for real, one after the other, and stops at the first failure. on are
// the minions the plan resolved each unit's targets to (by service; a unit without an entry
// runs on its targets as they match now); total is the number of states the plan saw (0 if
// unknown), the events' Total.
func (l *Layer) applyUnits(ctx context.Context, units []executor.Unit, on map[string][]string, total int, obs executor.Observer) (tally, error) {
	t := &tally{}
	for _, u := range units {
		p := newUnitProgress(l, u.Service, t, total, obs.Event)
		p.output = func(line string) { obs.Output(executor.Salt, line) }
		mask := maskerFor(u)
		p.mask = &mask
		what := "the " + u.Service + " states"
		if len(units) == 1 && total > 0 {
			what = "the " + plural(total, "state")
		}
		rets, err := l.runUnit(ctx, u, on[u.Service], false, &watch{state: p.state, ret: p.ret, notice: p.notice, what: what})
		if errors.As(err, new(*executor.UnknownError)) {
			return *t, fmt.Errorf("%s: %w", u.Service, err)
		}
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

// reportNewcomers reports the minions that match a unit's glob now but did not when the plan
// was made: the apply runs on the planned minions only, since nobody approved the others.
func (l *Layer) reportNewcomers(ctx context.Context, units []executor.Unit, on map[string][]string, report func(executor.Event)) []string {
	var joined []string
	for _, u := range units {
		planned, ok := on[u.Service]
		if !ok {
			continue
		}
		for _, m := range l.newcomers(ctx, u, planned) {
			joined = append(joined, m)
			executor.Log(ctx, l.log).Warn("a minion joined since the plan; not configuring it", "unit", u.Service, "minion", m)
			if report != nil {
				report(executor.Event{Layer: executor.Salt, Unit: u.Service, Resource: m, Action: executor.NoOp,
					Message: "joined since the plan; not configured (plan again to include it)", Time: l.now()})
			}
		}
	}
	return joined
}
