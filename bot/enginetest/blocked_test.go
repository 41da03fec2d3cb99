package enginetest_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// failingSalt is a Salt layer whose dry run says the apply would fail, as the real layer
// does for a state that fails in test mode. It counts applies, which must never happen.
type failingSalt struct{ applies atomic.Int32 }

const saltFailure = "eos-minion: lvm.lv_present data-grafana: Volume group vg0 not found"

func (l *failingSalt) Name() executor.LayerName { return executor.Salt }
func (l *failingSalt) Plan(_ context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	return executor.LayerPlan{Status: executor.PlanChanges, Summary: "eos-minion: 1 would fail (lvm.lv_present data-grafana)",
		Digest:   "salt " + spec.Target,
		Changes:  []executor.Change{{Unit: spec.Target, Action: executor.NoOp, Address: "eos-minion: lvm.lv_present data-grafana", Detail: "would fail: Volume group vg0 not found"}},
		Failures: []string{saltFailure}}, nil
}
func (l *failingSalt) Apply(context.Context, executor.Spec, executor.LayerPlan, executor.Observer) (executor.LayerResult, error) {
	l.applies.Add(1)
	return executor.LayerResult{}, nil
}
func (l *failingSalt) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	return executor.LayerDrift{Status: executor.DriftClean}, nil
}
func (l *failingSalt) Rollback(context.Context, executor.Spec, *executor.Spec, executor.Observer) (string, error) {
	return "", nil
}

// A plan in which a layer already says it would fail leads its preview with ⛔ and the
// reason, offers no approval, and is stored blocked: a ✅ on it is answered once per person
// with the reason, counts nothing and starts nothing; cancel, expiry and a restart's catch-up
// leave it alone.
// Before, such a plan said "React ✅ to approve" and ran when approved.
func TestAPlanThatWouldFailCannotBeApproved(t *testing.T) {
	t.Parallel()
	salt := &failingSalt{}
	clock := eostest.NewClock(time.Date(2026, 11, 25, 14, 0, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{salt}, Clock: clock})
	h.Say("alice", "@eos create grafana")
	preview := h.WaitText(0, "create grafana in local", "⛔ This plan would fail, so it cannot be approved: Salt: "+saltFailure)
	if strings.Contains(preview.Text, "React ✅") || !strings.Contains(preview.Text, "No approval possible: nothing will run.") ||
		!strings.Contains(preview.Text, "then ask again: @eos create grafana ·") {
		t.Errorf("the preview of a plan that would fail offers approval:\n%s", preview.Text)
	}
	if i, j := strings.Index(preview.Text, "⛔"), strings.Index(preview.Text, "layer"); i < 0 || j < i {
		t.Errorf("⛔ does not lead the preview:\n%s", preview.Text)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(preview.Text)[1]
	if p, err := h.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanBlocked {
		t.Fatalf("plan %s stored as %+v (%v), want blocked", id, p, err)
	}

	h.React("bob", preview.ID, "+1")
	refusal := "Plan " + id + " cannot be approved: it would fail.\nSalt: " + saltFailure
	first := h.WaitText(preview.ID, refusal)
	h.Unreact("bob", preview.ID, "+1")
	h.React("bob", preview.ID, "+1") // again: already told
	h.React("carol", preview.ID, "+1")
	h.WaitText(first.ID, refusal) // carol's answer, after bob's second ✅ was handled
	h.Say("alice", "@eos cancel "+id)
	h.WaitText(preview.ID, "Plan "+id+" is blocked, not pending: nothing to cancel.")
	h.Say("alice", "@eos why "+id)
	h.WaitText(preview.ID, "· blocked", "It cannot be approved: it would fail.\nSalt: "+saltFailure, "Reactions that did not count:")
	clock.Advance(48 * time.Hour)
	h.Engine.ExpireDue(context.Background())
	h.Idle()

	n := 0
	for _, r := range botReplies(h, preview.ID) {
		if strings.HasPrefix(r, "Plan "+id+" cannot be approved: it would fail.") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d answers to the approvals, want one for bob and one for carol", n)
	}
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 || salt.applies.Load() != 0 {
		t.Fatalf("an approval of a plan that would fail started %d runs, %d Salt applies", len(runs), salt.applies.Load())
	}
	p, err := h.Store.Plan(context.Background(), id)
	if err != nil || p.State != store.PlanBlocked || len(p.Approvals) != 0 {
		t.Errorf("plan after the reactions, cancel and expiry: %+v (%v); want blocked, no approvals", p, err)
	}

	// The start-up catch-up leaves it as it is: neither run, nor cancelled as a pending plan
	// whose console preview is gone.
	h.Stop()
	h2 := eostest.New(t, eostest.Options{DataDir: h.DataDir, Layers: []executor.Layer{salt}, Clock: clock})
	h2.Idle()
	if p, err := h2.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanBlocked {
		t.Errorf("plan after a restart: %+v (%v); want blocked", p, err)
	}
	if runs, _ := h2.Store.Runs(context.Background(), nil); len(runs) != 0 || salt.applies.Load() != 0 {
		t.Errorf("after a restart %d runs, %d Salt applies; want none", len(runs), salt.applies.Load())
	}
}
