package enginetest_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// gatedSalt is a Salt layer with nothing to change whose second plan (the re-plan that binds
// an approval) waits until the test lets it go, so the test can break the store between the
// approval and the run's start.
type gatedSalt struct {
	plans    atomic.Int32
	replan   chan struct{} // closed when the second plan starts
	release  chan struct{} // the second plan returns once it is closed
	applying atomic.Int32
}

func newGatedSalt() *gatedSalt {
	return &gatedSalt{replan: make(chan struct{}), release: make(chan struct{})}
}

func (l *gatedSalt) Name() executor.LayerName { return executor.Salt }
func (l *gatedSalt) Plan(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	if l.plans.Add(1) == 2 {
		close(l.replan)
		select {
		case <-l.release:
		case <-ctx.Done():
			return executor.LayerPlan{}, ctx.Err()
		}
	}
	return executor.LayerPlan{Status: executor.PlanNoChanges, Summary: "no changes", Digest: "salt " + spec.Target}, nil
}
func (l *gatedSalt) Apply(context.Context, executor.Spec, executor.LayerPlan, executor.Observer) (executor.LayerResult, error) {
	l.applying.Add(1)
	return executor.LayerResult{Layer: executor.Salt, Status: executor.ResultSkipped, Summary: "no changes"}, nil
}
func (l *gatedSalt) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	return executor.LayerDrift{Status: executor.DriftClean}, nil
}
func (l *gatedSalt) Rollback(context.Context, executor.Spec, *executor.Spec, executor.Observer) (string, error) {
	return "", nil
}

// When the store breaks between an approval and its run's start, Eos can neither start the
// run nor take the approval back: the store still holds the plan approved, and the next start
// of Eos takes it up. The answer says exactly that, and how to stop it, instead of "your
// approval is not kept" (which a restart then contradicted by running the plan). Before, the
// answer said "not kept".
func TestAnApprovalEosCannotTakeBackIsNotCalledNotKept(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	salt := newGatedSalt()
	h := eostest.New(t, eostest.Options{DataDir: data, Layers: []executor.Layer{salt}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	<-salt.replan
	if err := h.Store.Close(); err != nil { // every read and write fails from here on
		t.Fatal(err)
	}
	close(salt.release)
	said := h.WaitText(p.ID, "Plan "+id+" was approved but could not start")
	for _, want := range []string{
		"Eos could not take your approval back either",
		"when Eos starts again it plans it again, judges it by the policy in force then, and runs it",
		"If it should not run, ❌ it or `@eos cancel " + id + "`",
	} {
		if !strings.Contains(said.Text, want) {
			t.Errorf("the answer does not say %q:\n%s", want, said.Text)
		}
	}
	if strings.Contains(said.Text, "not kept") {
		t.Errorf("the answer says the approval is not kept, but the store still holds it:\n%s", said.Text)
	}
	h.Idle()
	if n := salt.applying.Load(); n != 0 {
		t.Fatalf("Salt applied %d times with a broken store", n)
	}
	h.Stop()

	// What the answer promised: the next start plans it again and runs it, once.
	h2 := eostest.New(t, eostest.Options{DataDir: data, Layers: []executor.Layer{newGatedSaltOpen()}})
	h2.WaitText(0, "Run "+id+" · done in")
	h2.Idle()
	if got, err := h2.Store.Plan(context.Background(), id); err != nil || got.State == store.PlanPending {
		t.Fatalf("plan %s after the restart: %+v, %v", id, got, err)
	}
	if n := runsStarted(t, h2.Store, id); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
}

// newGatedSaltOpen is a gatedSalt that never waits.
func newGatedSaltOpen() *gatedSalt {
	l := newGatedSalt()
	close(l.release)
	return l
}
