package executor

import (
	"context"
	"slices"
	"testing"
)

// talkingLayer reports progress and writes output lines, as a real layer does while it applies.
type talkingLayer struct{ recLayer }

func (l *talkingLayer) Apply(ctx context.Context, spec Spec, plan LayerPlan, obs Observer) (LayerResult, error) {
	obs = Heard(obs)
	obs.Output(l.name, "creating x")
	obs.Output(l.name, "")
	res, err := l.recLayer.Apply(ctx, spec, plan, obs)
	obs.Output(l.name, "x created")
	return res, err
}

// TestApplyObserverHearsProgressAndOutput protects the one way a run talks back: the
// observer given to Apply hears each layer's progress and its own output lines (empty ones
// dropped).
func TestApplyObserverHearsProgressAndOutput(t *testing.T) {
	var calls []string
	r, err := NewRunner(RunnerConfig{Layers: []Layer{
		&talkingLayer{recLayer{name: Terraform, calls: &calls}},
		&talkingLayer{recLayer{name: Nomad, calls: &calls}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(context.Background(), spec())
	if err != nil {
		t.Fatal(err)
	}
	var heard []string
	ctx := context.Background()
	obs := Observe(
		func(e Event) { heard = append(heard, "event "+string(e.Layer)) },
		func(l LayerName, line string) { heard = append(heard, string(l)+": "+line) },
	)
	if res := r.Apply(ctx, plan, nil, obs); res.Failed {
		t.Fatalf("apply failed: %+v", res)
	}
	want := []string{
		"terraform: creating x", "event terraform", "terraform: x created",
		"nomad: creating x", "event nomad", "nomad: x created",
	}
	if !slices.Equal(heard, want) {
		t.Errorf("observer heard %q, want %q", heard, want)
	}
}

// A nil observer, or one made of nil functions, hears nothing and breaks nothing.
func TestApplyWithoutObserver(t *testing.T) {
	var calls []string
	r, err := NewRunner(RunnerConfig{Layers: []Layer{&talkingLayer{recLayer{name: Terraform, calls: &calls}}}})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(context.Background(), spec())
	if err != nil {
		t.Fatal(err)
	}
	for _, obs := range []Observer{nil, Observe(nil, nil)} {
		if res := r.Apply(context.Background(), plan, nil, obs); res.Failed {
			t.Errorf("apply with observer %v failed: %+v", obs, res)
		}
	}
}
