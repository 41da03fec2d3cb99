package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A plan approved just before a crash (approved, no run yet) is started at start-up: nothing
// that was approved is lost. (A plan pending when Eos stopped can be approved after it starts
// again where its preview outlives Eos: TestE2EMattermostBotRestart.) Console posts do not
// outlive Eos: the approved plan's progress is posted at channel level, and a pending plan
// whose preview was a console post of the earlier session is cancelled, so a ✅ on the new
// session's post with the same number can never approve it.
func TestPlansSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	oldPreview, pending := eostest.Preview(t, h, "alice", "@eos create grafana")
	_, approved := eostest.Preview(t, h, "alice", "@eos create jenkins")
	h.Stop()

	// Simulate a crash between the approval's commit and the run's start.
	st, err := store.Open(dir+"/eos.db", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdatePlan(context.Background(), approved, func(p *store.Plan) error {
		p.State = store.PlanApproved
		p.Approvals = []store.Vote{{User: "bob"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	h2 := eostest.New(t, eostest.Options{DataDir: dir})
	h2.Idle()
	r, err := h2.Store.Run(context.Background(), approved)
	if err != nil || r.State != store.RunDone {
		t.Fatalf("the plan approved before the restart did not run: %+v, %v\n%s", r, err, h2.Log.String())
	}
	if done := h2.WaitText(0, "Run "+approved+" · done in"); done.Thread != 0 {
		t.Errorf("progress of the approved plan posted in thread %d of this session, want channel level", done.Thread)
	}
	p, err := h2.Store.Plan(context.Background(), pending)
	if err != nil || p.State != store.PlanCancelled || !strings.Contains(p.Text, "grafana") {
		t.Fatalf("pending plan with a preview of the earlier session = %+v, %v; want it cancelled", p, err)
	}
	h2.WaitText(0, "Plan "+pending+" (create grafana in local, asked by @alice) is cancelled: its preview is gone")

	// Fill this session up to the old preview's number and approve that post.
	for h2.Last() < oldPreview.ID {
		after := h2.Last()
		h2.Say("alice", "@eos help")
		h2.WaitText(after, "Commands")
	}
	h2.React("bob", oldPreview.ID, "+1")
	after := h2.Last()
	h2.Say("alice", "@eos history grafana") // handled after the reaction
	h2.WaitText(after, "No runs of grafana yet")
	h2.Idle()
	if r, err := h2.Store.Run(context.Background(), pending); err == nil {
		t.Fatalf("a ✅ in the new session ran the earlier session's plan: %+v", r)
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
	// Its progress post was a console post of the earlier session.
	progress := adapters.PostRef{Platform: "console", Channel: "local", ID: "3@0ldsess1", Thread: "1@0ldsess1"}
	if err := st.StartRun(context.Background(), &store.Run{ID: "deadbeef", State: store.RunRunning, Verb: "create", Target: "grafana", Env: "local", Progress: progress}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	r, err := h.Store.Run(context.Background(), "deadbeef")
	if err != nil || r.State != store.RunInterrupted {
		t.Fatalf("run after restart = %+v, %v", r, err)
	}
	if locks, _ := h.Store.Locks(context.Background()); len(locks) != 0 {
		t.Fatalf("locks after restart = %+v", locks)
	}
	// Said anew, since the post to edit is gone.
	if p := h.WaitText(0, "Run deadbeef · interrupted: Eos stopped while it ran"); p.Thread != 0 || p.Edits != 0 {
		t.Errorf("the interruption was said in thread %d with %d edits, want a new channel-level post", p.Thread, p.Edits)
	}
	eostest.Preview(t, h, "alice", "@eos create grafana")
}

// approveOffline marks plan id approved by votes in the store of a stopped bot, as if Eos had
// crashed between the approval's commit and the run's start.
func approveOffline(t *testing.T, dir, id string, votes ...store.Vote) {
	t.Helper()
	st, err := store.Open(dir+"/eos.db", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.UpdatePlan(context.Background(), id, func(p *store.Plan) error {
		p.State, p.Approvals = store.PlanApproved, votes
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A plan approved before a restart is checked against its expiry: an approval is not a
// standing order to run whenever Eos comes back.
func TestApprovedPlanPastExpiryDoesNotRunAfterRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{DataDir: dir, Clock: clock})
	_, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.Stop()
	approveOffline(t, dir, id, store.Vote{User: "bob", UserID: "bob", Platform: "console"})
	clock.Advance(2 * time.Hour)

	h2 := eostest.New(t, eostest.Options{DataDir: dir, Clock: clock})
	h2.WaitText(0, "Plan "+id+" was approved, but Eos stopped before it ran and it expired at 14:30 UTC: nothing ran.")
	h2.Idle()
	if r, err := h2.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("an expired approval ran after the restart: %+v", r)
	}
	if p, _ := h2.Store.Plan(context.Background(), id); p.State != store.PlanExpired {
		t.Errorf("plan state = %s, want expired", p.State)
	}
}

// A process that posted a preview and died before recording it (a kill, a failover) leaves a
// pending plan no reaction can reach: the next one posts the preview again, says why, and a
// ✅ there approves and runs the plan.
func TestPreviewNeverRecordedIsPostedAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	_, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.Stop()
	st, err := store.Open(dir+"/eos.db", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.UpdatePlan(context.Background(), id, func(p *store.Plan) error { p.Preview = adapters.PostRef{}; return nil }); err != nil {
		t.Fatal(err)
	}
	st.Close()

	h2 := eostest.New(t, eostest.Options{DataDir: dir})
	again := h2.WaitText(0, "Posted again: Eos stopped before it recorded plan "+id+"'s first preview", "Plan "+id, "React ✅ to approve")
	h2.React("bob", again.ID, "+1")
	h2.WaitText(again.ID, "Run "+id+" · done in")
	if p, err := h2.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanApproved || p.Preview.ID == "" {
		t.Fatalf("plan after its preview was posted again = %+v, %v", p, err)
	}
}
