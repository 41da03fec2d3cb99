package terraform

import (
	"context"
	"errors"
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
	res := r.Apply(ctx, approved, &previous, executor.Observe(func(e executor.Event) {
		if e.Rollback {
			rollbackSteps++
		}
	}, nil))

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

// Only Eos's own failures, and failures before Terraform began changing anything, halt; a
// resource that failed or a command that timed out is the layer's failure and may be rolled
// back by policy.
func TestHaltOfClassifiesFailures(t *testing.T) {
	cmd := func(cause error) error {
		return &commandError{op: "apply", key: "local/web", msg: "boom", cause: cause}
	}
	for _, tc := range []struct {
		name      string
		err       error
		started   int
		halt      bool
		untouched bool
	}{
		{"stale before anything", cmd(ErrStalePlan), 0, true, true},
		{"stale after an earlier unit", cmd(ErrStalePlan), 2, true, false},
		{"lock refused", cmd(ErrStateLocked), 0, true, true},
		{"lock not released after the changes", cmd(errLockRelease), 3, true, false},
		{"provider error before any resource", cmd(nil), 0, true, true},
		{"a resource failed", cmd(nil), 1, false, false},
		{"timed out", cmd(context.DeadlineExceeded), 0, false, false},
		{"cancelled", cmd(context.Canceled), 0, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := haltOf(tc.err, &progress{started: tc.started}, "web", false)
			var halt *executor.HaltError
			if got := errors.As(err, &halt); got != tc.halt {
				t.Fatalf("halt = %v, want %v (%v)", got, tc.halt, err)
			}
			if tc.halt && halt.Untouched != tc.untouched {
				t.Errorf("untouched = %v, want %v", halt.Untouched, tc.untouched)
			}
			if !errors.Is(err, tc.err) {
				t.Errorf("the halt hides the cause %v", tc.err)
			}
		})
	}
}
