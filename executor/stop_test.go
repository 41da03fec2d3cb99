package executor

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// stopAfter is a layer that asks the run to stop while it applies, as `cancel` of a running
// plan does: the layer must still finish.
type stopAfter struct {
	*recLayer
	stop chan struct{}
}

func (l stopAfter) Apply(ctx context.Context, spec Spec, plan LayerPlan, obs Observer) (LayerResult, error) {
	close(l.stop)
	return l.recLayer.Apply(ctx, spec, plan, obs)
}

// A stop asked for during Terraform lets Terraform finish, starts nothing after it and rolls
// nothing back, whatever the rollback policy.
func TestStopWaitsForTheLayerAndRollsNothingBack(t *testing.T) {
	for _, policy := range []RollbackPolicy{RollbackFailed, RollbackAll} {
		t.Run(string(policy), func(t *testing.T) {
			var calls []string
			stop := make(chan struct{})
			r, err := NewRunner(RunnerConfig{Rollback: policy, Layers: []Layer{
				&recLayer{name: Salt, calls: &calls},
				stopAfter{recLayer: &recLayer{name: Terraform, calls: &calls}, stop: stop},
				&recLayer{name: Nomad, calls: &calls},
			}})
			if err != nil {
				t.Fatal(err)
			}
			plan, _ := r.Plan(context.Background(), spec())
			calls = nil
			res := r.Apply(context.Background(), plan, &Spec{Target: "svc"}, Observe(func(Event) {}, nil), StopWhen(stop))
			if got := strings.Join(calls, ","); got != "apply salt,apply terraform" {
				t.Errorf("calls = %s, want salt and terraform applied, nothing rolled back, nomad not started", got)
			}
			if !res.Stopped || !res.Failed || res.Halted {
				t.Errorf("result = %+v, want stopped (and so not done), not halted", res)
			}
			want := []ResultStatus{ResultOK, ResultOK, ResultNotStarted}
			for i, l := range res.Layers {
				if l.Status != want[i] || l.Rollback != "" {
					t.Errorf("%s = %s (rollback %q), want %s and no rollback", l.Layer, l.Status, l.Rollback, want[i])
				}
			}
		})
	}
}

// A stop asked for before the run starts applies nothing; without a stop the run is whole.
// A layer with nothing to do reads skipped, not "not started".
func TestStopBeforeTheFirstLayerAppliesNothing(t *testing.T) {
	var calls []string
	r, err := NewRunner(RunnerConfig{Layers: []Layer{&recLayer{name: Salt, calls: &calls}, &recLayer{name: Terraform, calls: &calls}}})
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := r.Plan(context.Background(), spec())
	calls = nil
	stop := make(chan struct{})
	if res := r.Apply(context.Background(), plan, nil, Observe(func(Event) {}, nil), StopWhen(stop)); res.Failed || res.Stopped {
		t.Fatalf("an open stop channel stopped the run: %+v", res)
	}
	close(stop)
	calls = nil
	res := r.Apply(context.Background(), plan, nil, Observe(func(Event) {}, nil), StopWhen(stop))
	if len(calls) != 0 || !res.Stopped {
		t.Errorf("calls = %v, stopped = %v; want nothing applied and stopped", calls, res.Stopped)
	}
	// Nomad is not configured: the stop kept it from nothing, so it reads skipped.
	want := []ResultStatus{ResultNotStarted, ResultNotStarted, ResultSkipped}
	for i, l := range res.Layers {
		if l.Status != want[i] {
			t.Errorf("%s = %s, want %s", l.Layer, l.Status, want[i])
		}
	}
}

// After a failure too, a later layer with nothing to do (not configured here) reads skipped:
// "Nomad not started" would say the failure kept it from something.
func TestAFailureKeepsALayerNotConfiguredFromNothing(t *testing.T) {
	var calls []string
	r, err := NewRunner(RunnerConfig{Layers: []Layer{&recLayer{name: Salt, calls: &calls, failWith: errors.New("boom")}, &recLayer{name: Terraform, calls: &calls}}})
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := r.Plan(context.Background(), spec())
	res := r.Apply(context.Background(), plan, nil, Observe(func(Event) {}, nil))
	want := []ResultStatus{ResultFailed, ResultNotStarted, ResultSkipped}
	for i, l := range res.Layers {
		if l.Status != want[i] {
			t.Errorf("%s = %s, want %s", l.Layer, l.Status, want[i])
		}
	}
	if !res.Failed || res.Layers[2].Summary != "not configured" {
		t.Errorf("result %+v; want failed, Nomad skipped as not configured", res)
	}
}
