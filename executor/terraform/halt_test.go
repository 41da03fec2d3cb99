package terraform

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// The scenario through the runner: an approved plan whose state moved on (another
// apply in between) stops the run as stale, and the runner does not "roll back" by applying
// the previous spec, which nobody approved for this run.
func TestStalePlanStopsTheRunWithoutRollback(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	r, err := executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{l}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	previous := serverSpec("small")
	mustApply(t, l, previous, mustPlan(t, l, previous))

	approved, err := r.Plan(ctx, serverSpec("large"))
	if err != nil {
		t.Fatal(err)
	}
	meanwhile := serverSpec("medium") // someone else's run moves the state on
	mustApply(t, l, meanwhile, mustPlan(t, l, meanwhile))

	var rollbackSteps int
	res := r.Apply(ctx, approved, &previous, func(e executor.Event) {
		if e.Rollback {
			rollbackSteps++
		}
	})
	tf, _ := layerResult(res, executor.Terraform)
	want := "stopped before changing anything: the saved plan is stale (state changed since it was planned); nothing was rolled back"
	if !res.Failed || !res.Halted || tf.Status != executor.ResultHalted || tf.Error != want {
		t.Fatalf("result %+v, terraform %+v; want halted with %q", res, tf, want)
	}
	if rollbackSteps != 0 || strings.Contains(tf.Rollback, "re-applied") {
		t.Errorf("%d rollback steps, rollback %q: a stale plan was rolled back", rollbackSteps, tf.Rollback)
	}
	if p := mustPlan(t, l, meanwhile); p.Status != executor.PlanNoChanges {
		t.Errorf("the state is no longer the other run's: %+v", p.Changes)
	}
}

func layerResult(res executor.RunResult, name executor.LayerName) (executor.LayerResult, bool) {
	for _, l := range res.Layers {
		if l.Layer == name {
			return l, true
		}
	}
	return executor.LayerResult{}, false
}
