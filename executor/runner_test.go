package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// callsMu guards the recLayers' calls: the runner plans layers side by side.
var callsMu sync.Mutex

func record(calls *[]string, call string) {
	callsMu.Lock()
	defer callsMu.Unlock()
	*calls = append(*calls, call)
}

// recLayer is a hand-written layer that records what the runner asks of it.
type recLayer struct {
	name        LayerName
	failWith    error
	rollbackErr error
	calls       *[]string
}

func (l *recLayer) Name() LayerName { return l.name }
func (l *recLayer) Plan(_ context.Context, spec Spec) (LayerPlan, error) {
	record(l.calls, "plan "+string(l.name))
	return LayerPlan{Status: PlanChanges, Digest: string(l.name) + " " + spec.Target, Changes: []Change{{Action: Create, Address: "x"}}}, nil
}
func (l *recLayer) Apply(_ context.Context, _ Spec, _ LayerPlan, obs Observer) (LayerResult, error) {
	report := Heard(obs).Event
	record(l.calls, "apply "+string(l.name))
	report(Event{Layer: l.name, Done: 1, Total: 1})
	if l.failWith != nil {
		return LayerResult{Failed: &Change{Address: "x"}}, l.failWith
	}
	return LayerResult{Summary: "+1"}, nil
}
func (l *recLayer) Drift(context.Context, Spec) (LayerDrift, error) {
	if l.failWith != nil {
		return LayerDrift{}, l.failWith
	}
	return LayerDrift{Status: DriftClean}, nil
}
func (l *recLayer) Rollback(_ context.Context, _ Spec, prev *Spec, obs Observer) (string, error) {
	report := Heard(obs).Event
	record(l.calls, "rollback "+string(l.name))
	report(Event{Layer: l.name, Done: 1, Total: 1})
	if l.rollbackErr != nil {
		return "", l.rollbackErr
	}
	return "undone", nil
}

func spec() Spec {
	return Spec{Verb: "create", Target: "svc", Env: "local", Units: []Unit{{Service: "svc",
		Salt: &SaltPart{State: "s.sls"}, Terraform: &TerraformPart{}, Nomad: &NomadPart{}}}}
}

func TestRunnerOrderAndNotConfigured(t *testing.T) {
	var calls []string
	r, err := NewRunner(RunnerConfig{Layers: []Layer{&recLayer{name: Nomad, calls: &calls}, &recLayer{name: Terraform, calls: &calls}}})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(context.Background(), spec())
	if err != nil {
		t.Fatal(err)
	}
	if plan.Layers[0].Status != PlanNotConfigured || plan.Layers[0].Summary != "not configured — skipped" {
		t.Errorf("salt plan = %+v, want not configured", plan.Layers[0])
	}
	if len(calls) != 2 {
		t.Errorf("plan calls = %v, want terraform's and nomad's", calls)
	}
	calls = nil
	var events []LayerName
	res := r.Apply(context.Background(), plan, nil, Observe(func(e Event) { events = append(events, e.Layer) }, nil))
	if got := strings.Join(calls, ","); got != "apply terraform,apply nomad" {
		t.Errorf("calls = %s: layers must run in the order Salt, Terraform, Nomad", got)
	}
	if res.Failed || res.Layers[0].Status != ResultSkipped || res.Layers[1].Status != ResultOK || res.Layers[2].Status != ResultOK {
		t.Errorf("result = %+v", res)
	}
	if len(events) != 2 || events[0] != Terraform {
		t.Errorf("events = %v", events)
	}
}

func TestRunnerStopsAtFailureAndRollsBackByPolicy(t *testing.T) {
	for _, tc := range []struct {
		name        string
		policy      RollbackPolicy
		rollbackErr error
		calls       string
		note        string
		events      string // what the progress reporter saw: layer, and "undo" for a rollback step
		rolledBack  bool
	}{
		{"failed", RollbackFailed, nil, "apply salt,apply terraform,rollback terraform", "undone", "salt,terraform,terraform undo", true},
		{"all", RollbackAll, nil, "apply salt,apply terraform,rollback terraform,rollback salt", "undone; Salt: undone", "salt,terraform,terraform undo,salt undo", true},
		{"none", RollbackNone, nil, "apply salt,apply terraform", "not rolled back (policy: none)", "salt,terraform", false},
		{"rollback_fails", RollbackFailed, errors.New("state locked"), "apply salt,apply terraform,rollback terraform", "rollback failed: state locked", "salt,terraform,terraform undo", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			r, err := NewRunner(RunnerConfig{Rollback: tc.policy, Layers: []Layer{
				&recLayer{name: Salt, calls: &calls},
				&recLayer{name: Terraform, calls: &calls, failWith: errors.New("volume data: size unknown"), rollbackErr: tc.rollbackErr},
				&recLayer{name: Nomad, calls: &calls},
			}})
			if err != nil {
				t.Fatal(err)
			}
			plan, _ := r.Plan(context.Background(), spec())
			calls = nil
			var events []string
			res := r.Apply(context.Background(), plan, nil, Observe(func(e Event) {
				s := string(e.Layer)
				if e.Rollback {
					s += " undo"
				}
				events = append(events, s)
			}, nil))
			if got := strings.Join(calls, ","); got != tc.calls {
				t.Errorf("calls = %s, want %s", got, tc.calls)
			}
			if got := strings.Join(events, ","); got != tc.events {
				t.Errorf("events = %s, want %s: rollback steps must be marked as such", got, tc.events)
			}
			tf := res.Layers[1]
			if !res.Failed || tf.Status != ResultFailed || tf.Error != "volume data: size unknown" || tf.Rollback != tc.note || tf.RolledBack != tc.rolledBack {
				t.Errorf("terraform result = %+v", tf)
			}
			if res.Layers[2].Status != ResultNotStarted {
				t.Errorf("nomad = %s, want not started", res.Layers[2].Status)
			}
		})
	}
}

func TestPlanHashBindsEveryLayer(t *testing.T) {
	a := HashPlan(spec(), []LayerPlan{{Layer: Terraform, Status: PlanChanges, Digest: "create x"}})
	if a != HashPlan(spec(), []LayerPlan{{Layer: Terraform, Status: PlanChanges, Digest: "create x", State: []byte(`{"file":"/tmp/1"}`)}}) {
		t.Error("layer-private state changed the hash")
	}
	if a == HashPlan(spec(), []LayerPlan{{Layer: Terraform, Status: PlanChanges, Digest: "create y"}}) {
		t.Error("a different layer plan has the same hash")
	}
	other := spec()
	other.Env = "production"
	if a == HashPlan(other, []LayerPlan{{Layer: Terraform, Status: PlanChanges, Digest: "create x"}}) {
		t.Error("a different spec has the same hash")
	}
}

func TestDriftUnknownIsNeverClean(t *testing.T) {
	var calls []string
	r, _ := NewRunner(RunnerConfig{Layers: []Layer{&recLayer{name: Terraform, calls: &calls, failWith: errors.New("state locked")}}})
	d := r.Drift(context.Background(), spec())
	if d[0].Status != DriftSkipped || d[1].Status != DriftUnknown || d[1].Reason != "state locked" {
		t.Fatalf("drift = %+v", d)
	}
}

func TestRunnerRejectsBadWiring(t *testing.T) {
	var calls []string
	if _, err := NewRunner(RunnerConfig{Layers: []Layer{&recLayer{name: Salt, calls: &calls}, &recLayer{name: Salt, calls: &calls}}}); err == nil {
		t.Error("two salt layers accepted")
	}
	if _, err := NewRunner(RunnerConfig{Rollback: "sometimes"}); err == nil {
		t.Error("unknown rollback policy accepted")
	}
}

// A layer that stops for a reason that is not its failure (Eos's saved plan went stale, the
// state lock was refused) is never rolled back, under any policy, and neither are the layers
// applied before it: nobody approved the state a rollback would apply.
func TestRunnerHaltNeverRollsBack(t *testing.T) {
	stale := Halt("the saved plan is stale (state changed since it was planned)", true, errors.New("terraform apply for local/svc: Saved plan is stale"))
	for _, policy := range []RollbackPolicy{RollbackFailed, RollbackAll, RollbackNone} {
		t.Run(string(policy), func(t *testing.T) {
			var calls []string
			r, err := NewRunner(RunnerConfig{Rollback: policy, Layers: []Layer{
				&recLayer{name: Salt, calls: &calls},
				&recLayer{name: Terraform, calls: &calls, failWith: fmt.Errorf("applying: %w", stale)},
				&recLayer{name: Nomad, calls: &calls},
			}})
			if err != nil {
				t.Fatal(err)
			}
			plan, _ := r.Plan(context.Background(), spec())
			calls = nil
			res := r.Apply(context.Background(), plan, &Spec{Target: "svc"}, Observe(func(Event) {}, nil))
			if got := strings.Join(calls, ","); got != "apply salt,apply terraform" {
				t.Errorf("calls = %s, want no rollback and nothing after terraform", got)
			}
			tf := res.Layers[1]
			want := "stopped before changing anything: the saved plan is stale (state changed since it was planned); nothing was rolled back"
			if !res.Failed || !res.Halted || tf.Status != ResultHalted || tf.Error != want || tf.Rollback != "nothing was rolled back" {
				t.Errorf("result = %+v, terraform = %+v; want halted with %q", res, tf, want)
			}
			if res.Layers[0].Status != ResultOK || res.Layers[2].Status != ResultNotStarted {
				t.Errorf("salt = %s, nomad = %s; want ok and not started", res.Layers[0].Status, res.Layers[2].Status)
			}
		})
	}
}

// A layer's real failure still rolls back; only a HaltError (wrapped or not) halts.
func TestHaltErrorIsDistinctFromFailure(t *testing.T) {
	cause := errors.New("state lock refused")
	h := Halt("the state is locked by bob@host (apply)", false, cause)
	wrapped := fmt.Errorf("unit web: %w", h)
	var got *HaltError
	if !errors.As(wrapped, &got) || !errors.Is(wrapped, ErrNotApplied) || !errors.Is(wrapped, cause) {
		t.Fatalf("errors.As/Is do not see through %v", wrapped)
	}
	if m := got.Message(); m != "stopped: the state is locked by bob@host (apply); what was applied before it stays, nothing was rolled back" {
		t.Errorf("message = %q", m)
	}
	if errors.Is(errors.New("volume data: size unknown"), ErrNotApplied) {
		t.Error("a plain error counts as a halt")
	}
}
