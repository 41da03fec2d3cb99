package terraform

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/executor"
)

// applyRace plans s on every layer (separate Eos instances sharing one backend), then applies
// all the plans at once. Exactly one apply must win and one be refused by Terraform's lock; it
// returns the refused layer and what it was told.
func applyRace(t *testing.T, layers []*Layer, s executor.Spec) (loser *Layer, msg string) {
	t.Helper()
	plans := make([]executor.LayerPlan, len(layers))
	for i, l := range layers {
		plans[i] = mustPlan(t, l, s)
		if plans[i].Status != executor.PlanChanges {
			t.Fatalf("plan %d = %s, want changes", i, plans[i].Status)
		}
	}
	errs := make([]error, len(layers))
	var wg sync.WaitGroup
	for i, l := range layers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = l.Apply(testCtx(t), s, plans[i], executor.Observe(func(executor.Event) {}, nil))
		}()
	}
	wg.Wait()

	var winners, losers []int
	for i, err := range errs {
		switch {
		case err == nil:
			winners = append(winners, i)
		case errors.Is(err, ErrStateLocked):
			losers = append(losers, i)
		default:
			t.Fatalf("apply %d failed for another reason: %v", i, err)
		}
	}
	if len(winners) != 1 || len(losers) != 1 {
		t.Fatalf("winners %v, losers %v; want exactly one of each (errors %v)", winners, losers, errs)
	}
	msg = errs[losers[0]].Error()
	t.Logf("the loser was told: %s", msg)
	return layers[losers[0]], msg
}

// loserRecovers checks that the refused instance of applyRace rolls nothing back and, trying
// again, plans no changes: the winner's apply is in the shared state.
func loserRecovers(t *testing.T, loser *Layer, s executor.Spec) {
	t.Helper()
	note, err := loser.Rollback(testCtx(t), s, nil, executor.Observe(nil, nil))
	if err != nil || !strings.Contains(note, "nothing was applied") {
		t.Errorf("loser's rollback = %q, %v; want nothing rolled back", note, err)
	}
	if p := mustPlan(t, loser, s); p.Status != executor.PlanNoChanges {
		t.Errorf("the loser's retry plans %s (%v), want no changes", p.Status, p.Changes)
	}
}
