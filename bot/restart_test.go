package bot_test

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A plan that was pending when Eos stopped can be approved after it starts again, and a plan
// approved just before a crash (approved, no run yet) is started at start-up: nothing that
// was approved is lost.
func TestPlansSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	_, pending := preview(t, h, "alice", "@eos create grafana")
	_, approved := preview(t, h, "alice", "@eos create jenkins")
	h.Stop()

	// Simulate a crash between the approval's commit and the run's start.
	st, err := store.Open(dir+"/eos.db", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdatePlan(approved, func(p *store.Plan) error {
		p.State = store.PlanApproved
		p.Approvals = []store.Vote{{User: "bob"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	h2 := eostest.New(t, eostest.Options{DataDir: dir})
	h2.Idle()
	r, err := h2.Store.Run(approved)
	if err != nil || r.State != store.RunDone {
		t.Fatalf("the plan approved before the restart did not run: %+v, %v\n%s", r, err, h2.Log.String())
	}
	p, err := h2.Store.Plan(pending)
	if err != nil || p.State != store.PlanPending {
		t.Fatalf("pending plan after restart = %+v, %v", p, err)
	}
	if !strings.Contains(p.Text, "grafana") {
		t.Fatalf("wrong plan: %+v", p)
	}
}

// A run still marked running when Eos starts was interrupted: it is recorded so and its lock
// is released, so the service can be planned again.
func TestInterruptedRunIsMarkedAndUnlocked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := store.Open(dir+"/eos.db", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.StartRun(&store.Run{ID: "deadbeef", State: store.RunRunning, Verb: "create", Target: "grafana", Env: "local"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	r, err := h.Store.Run("deadbeef")
	if err != nil || r.State != store.RunInterrupted {
		t.Fatalf("run after restart = %+v, %v", r, err)
	}
	if locks, _ := h.Store.Locks(); len(locks) != 0 {
		t.Fatalf("locks after restart = %+v", locks)
	}
	preview(t, h, "alice", "@eos create grafana")
}
