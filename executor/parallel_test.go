package executor

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// gateLayer's Plan returns only once every layer of the run has started planning (the gate
// opens when all have arrived): a runner that plans one layer after another never gets past
// the first. A layer may instead fail at once, or wait for its context.
type gateLayer struct {
	name    LayerName
	arrive  *sync.WaitGroup
	open    <-chan struct{}
	fail    error
	shuffle bool
}

func (l *gateLayer) Name() LayerName { return l.name }
func (l *gateLayer) Plan(ctx context.Context, spec Spec) (LayerPlan, error) {
	if l.fail != nil {
		return LayerPlan{}, l.fail
	}
	if l.arrive != nil {
		l.arrive.Done()
		select {
		case <-l.open:
		case <-ctx.Done():
			return LayerPlan{}, ctx.Err()
		}
	}
	if l.shuffle {
		for range rand.IntN(50) {
			runtime.Gosched() // finish in a different order each time
		}
	}
	return LayerPlan{Status: PlanChanges, Digest: string(l.name) + " " + spec.Target, Changes: []Change{{Action: Create, Address: string(l.name)}}}, nil
}
func (l *gateLayer) Apply(context.Context, Spec, LayerPlan, Observer) (LayerResult, error) {
	return LayerResult{}, nil
}
func (l *gateLayer) Drift(ctx context.Context, _ Spec) (LayerDrift, error) {
	if l.arrive != nil {
		l.arrive.Done()
		<-l.open
	}
	return LayerDrift{Status: DriftClean}, nil
}
func (l *gateLayer) Rollback(context.Context, Spec, *Spec, Observer) (string, error) {
	return "", nil
}

func gated(n int) (*sync.WaitGroup, chan struct{}) {
	var arrive sync.WaitGroup
	arrive.Add(n)
	open := make(chan struct{})
	go func() { arrive.Wait(); close(open) }()
	return &arrive, open
}

// The layers are planned, and checked for drift, side by side: each layer's plan here waits
// until all three have started, which one after another never happens.
func TestLayersArePlannedSideBySide(t *testing.T) {
	arrive, open := gated(3)
	var layers []Layer
	for _, n := range []LayerName{Salt, Terraform, Nomad} {
		layers = append(layers, &gateLayer{name: n, arrive: arrive, open: open})
	}
	r, err := NewRunner(RunnerConfig{Layers: layers})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(context.Background(), spec())
	if err != nil || len(plan.Layers) != 3 {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	arrive, open = gated(3)
	for _, l := range layers {
		l.(*gateLayer).arrive, l.(*gateLayer).open = arrive, open
	}
	if d := r.Drift(context.Background(), spec()); len(d) != 3 || d[0].Layer != Salt || d[2].Layer != Nomad {
		t.Fatalf("drift = %+v, want the three layers in order", d)
	}
}

// Whatever order the layers' plans finish in, the plan lists them in run order and its hash is
// the same: the same request planned 20 times gives one hash.
func TestAPlanIsTheSameWhateverOrderItsLayersFinish(t *testing.T) {
	var layers []Layer
	for _, n := range []LayerName{Salt, Terraform, Nomad} {
		layers = append(layers, &gateLayer{name: n, shuffle: true})
	}
	r, err := NewRunner(RunnerConfig{Layers: layers})
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[string]bool{}
	for range 20 {
		plan, err := r.Plan(context.Background(), spec())
		if err != nil {
			t.Fatal(err)
		}
		if plan.Layers[0].Layer != Salt || plan.Layers[1].Layer != Terraform || plan.Layers[2].Layer != Nomad {
			t.Fatalf("layers out of run order: %+v", plan.Layers)
		}
		hashes[plan.Hash] = true
	}
	if len(hashes) != 1 {
		t.Fatalf("20 plans of one request gave %d hashes", len(hashes))
	}
}

// A layer whose plan fails cancels the others (here Terraform's would otherwise wait forever)
// and the plan fails with that first cause.
func TestAFailingLayerPlanCancelsTheOthers(t *testing.T) {
	never := make(chan struct{})
	var arrive sync.WaitGroup
	arrive.Add(2)
	cause := errors.New("salt-api refused the login")
	r, err := NewRunner(RunnerConfig{Layers: []Layer{
		&gateLayer{name: Salt, fail: cause},
		&gateLayer{name: Terraform, arrive: &arrive, open: never},
		&gateLayer{name: Nomad, arrive: &arrive, open: never},
	}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Plan(context.Background(), spec())
	var le *LayerError
	if !errors.Is(err, cause) || !errors.As(err, &le) || le.Layer != Salt {
		t.Fatalf("err = %v, want Salt's failure", err)
	}
}
