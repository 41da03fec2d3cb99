package enginetest_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// heldText is what the thread says when an approval waits for space on work.
func heldText(id, work string) string {
	return "Plan " + id + " was approved, but the disk holding " + work + " is full (no space left on device), so its run cannot start yet. Nothing changed. " +
		"The approval is kept and the run starts when there is space (checking every 30 s): free space there."
}

// approveOnFullDisk asks for grafana, fills work's disk and approves as bob: the thread says
// the approval is kept, and the store has the plan approved and held with bob's approval.
func approveOnFullDisk(t *testing.T, h *eostest.Harness, work string, fill func() func()) (p console.Post, id string, free func()) {
	t.Helper()
	p, id = eostest.Preview(t, h, "alice", "@eos create grafana")
	free = fill()
	after := h.Last()
	h.React("bob", p.ID, "+1")
	h.WaitText(after, heldText(id, work))
	h.Idle() // a held approval is no run in flight: the bot is idle while it waits
	got, err := h.Store.Plan(context.Background(), id)
	if err != nil || got.State != store.PlanApproved || len(got.Approvals) != 1 || got.Held == nil || got.Held.Dir != work {
		t.Fatalf("plan while the disk is full: %+v, %v; want approved, held on %s, with bob's approval", got, err, work)
	}
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a run started on a full disk: %+v", r)
	}
	return p, id, free
}

// runsStarted counts the audit's run-start entries of plan id.
func runsStarted(t *testing.T, st *store.Store, id string) int {
	t.Helper()
	started, err := st.Audit(context.Background(), func(e *store.Entry) bool { return e.Kind == "run" && e.PlanID == id })
	if err != nil {
		t.Fatal(err)
	}
	return len(started)
}

// An approval given while the disk Terraform works on is full is not dropped: the thread says
// the disk is full, where, that the approval is kept and the run starts when there is space;
// the preview's status line says it waits; /healthz is not ready for the same reason
// meanwhile; and once space is freed the run starts by itself, once, without a second ✅.
// (Before, the answer was "could not start: … no space left on device", the plan silently went
// back to waiting with the ✅ still shown, and /healthz answered 200.)
func TestAnApprovalUnderAFullDiskIsKeptAndRunsWhenThereIsSpace(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	work := filepath.Join(data, "terraform")
	fill := eostest.FullDisk(t, work)
	h := eostest.New(t, eostest.Options{DataDir: data})
	if hl := h.Engine.Health(context.Background()); !hl.OK || hl.WorkDirs != "writable" {
		t.Fatalf("health before the disk fills = %+v, want ok with writable work dirs", hl)
	}
	p, id, free := approveOnFullDisk(t, h, work, fill)
	waitPreview(t, h, p, "approved by @bob ✅ · the approval is kept: run "+id+" starts when there is space (the disk holding "+work+" is full)")
	hl := h.Engine.Health(context.Background())
	if hl.OK || !strings.HasPrefix(hl.WorkDirs, work+": a run cannot write its working files there") || !strings.Contains(hl.WorkDirs, "no space left on device") {
		t.Errorf("health with the disk full = %+v, want not ready naming %s", hl, work)
	}
	free()
	freed := time.Now()
	h.WaitLog("space again: starting the approved plan that waited for it")
	started := time.Since(freed)
	h.WaitText(p.ID, "Run "+id+" · done in")
	// Asked once the run is done: asked at once, it raced the run starting, whose Terraform
	// init may briefly fill the small disk this test mounts.
	if hl := h.Engine.Health(context.Background()); !hl.OK {
		t.Errorf("health once space is freed = %+v, want ok", hl)
	}
	t.Logf("the held plan started %s after space was freed, and was done %s after", started.Round(time.Millisecond), time.Since(freed).Round(time.Millisecond))
	waitPreview(t, h, p, "approved by @bob ✅ · run "+id+" done")
	h.Idle()
	if n := runsStarted(t, h.Store, id); n != 1 {
		t.Errorf("the held plan started %d runs, want 1", n)
	}
	if got, err := h.Store.Plan(context.Background(), id); err != nil || got.Held != nil {
		t.Errorf("plan after its run: %+v, %v; want no longer held", got, err)
	}
}

// A held approval taken back while the disk is full ends the wait: the plan waits for
// approval again, and freeing space starts nothing; a new ✅ then runs it as usual.
func TestAHeldApprovalWithdrawnWhileWaitingRunsNothing(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	work := filepath.Join(data, "terraform")
	fill := eostest.FullDisk(t, work)
	h := eostest.New(t, eostest.Options{DataDir: data})
	p, id, free := approveOnFullDisk(t, h, work, fill)
	h.Unreact("bob", p.ID, "+1")
	h.WaitLog("an approved plan stopped waiting for space: it no longer stands")
	if got, err := h.Store.Plan(context.Background(), id); err != nil || got.State != store.PlanPending || len(got.Approvals) != 0 || got.Held != nil {
		t.Fatalf("plan after the ✅ was removed: %+v, %v; want pending, no approval, not held", got, err)
	}
	waitPreview(t, h, p, "React ✅ to approve")
	free()
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a withdrawn approval ran once space was freed: %+v", r)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	if n := runsStarted(t, h.Store, id); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
}

// A held plan cancelled while the disk is full ends the wait at once, and freeing space
// starts nothing.
func TestAHeldPlanCancelledWhileWaitingRunsNothing(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	work := filepath.Join(data, "terraform")
	fill := eostest.FullDisk(t, work)
	h := eostest.New(t, eostest.Options{DataDir: data})
	p, id, free := approveOnFullDisk(t, h, work, fill)
	h.Say("alice", "@eos cancel "+id)
	h.WaitText(p.ID, "Plan "+id+" cancelled by @alice before its run started. Nothing changed.")
	h.WaitLog("an approved plan stopped waiting for space: it was cancelled")
	free()
	h.Idle()
	if got, err := h.Store.Plan(context.Background(), id); err != nil || got.State != store.PlanCancelled {
		t.Fatalf("plan after the cancel: %+v, %v; want cancelled", got, err)
	}
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a cancelled held plan ran once space was freed: %+v", r)
	}
}

// A held approval survives a restart: the next Eos finds it in the store, keeps waiting
// (saying nothing new), and starts the run once there is space.
func TestAHeldApprovalIsKeptAcrossARestart(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	work := filepath.Join(data, "terraform")
	fill := eostest.FullDisk(t, work)
	h := eostest.New(t, eostest.Options{DataDir: data})
	_, id, free := approveOnFullDisk(t, h, work, fill)
	h.Stop()

	h2 := eostest.New(t, eostest.Options{DataDir: data})
	h2.Idle()
	got, err := h2.Store.Plan(context.Background(), id)
	if err != nil || got.State != store.PlanApproved || len(got.Approvals) != 1 || got.Held == nil {
		t.Fatalf("held plan after a restart: %+v, %v; want still approved and held", got, err)
	}
	if _, err := h2.Store.Run(context.Background(), id); err == nil {
		t.Fatal("a run started on a full disk after the restart")
	}
	free()
	h2.WaitText(0, "Run "+id+" · done in")
	h2.Idle()
	if n := runsStarted(t, h2.Store, id); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
	if said := botReplies(h2, 0, "was approved, but"); len(said) != 0 {
		t.Errorf("the restarted Eos said the hold again: %q", said)
	}
}

// With the whole data directory full, the store itself may fail to write (bbolt's file needs
// new blocks for some commits and not others, so which write fails first varies from run to
// run). Whichever it is, the approver is told, and what they are told is what the store
// holds: the approval held (then the run starts by itself once there is space), not kept or
// not recorded (then nothing runs, and a new ✅ after space is freed runs the plan), or not
// taken back either (then the store still has it approved, and the next start runs it, as
// the answer says). Never silence, never a run the answer did not promise.
func TestAnApprovalOnAFullDataDirIsNeverDroppedInSilence(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	fill := eostest.FullDisk(t, data)
	h := eostest.New(t, eostest.Options{DataDir: data})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	free := fill()
	after := h.Last()
	h.React("bob", p.ID, "+1")
	h.WaitPost(after, func(console.Post) bool { return true }) // the answer, whichever it is
	h.Idle()
	var said []string
	for _, q := range h.Console.Posts()[after:] {
		if q.Author == "eos" && q.ID != p.ID {
			said = append(said, q.Text)
		}
	}
	got, err := h.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	_, ranErr := h.Store.Run(context.Background(), id)
	held := got.State == store.PlanApproved && got.Held != nil
	switch {
	case len(said) != 1:
		t.Fatalf("the approval on a full data directory got %d answers, want 1: %q\n%s", len(said), said, h.Log.String())
	case ranErr == nil:
		t.Fatalf("a run started on a full data directory; the thread said %q", said[0])
	case strings.Contains(said[0], "The approval is kept"):
		if !held {
			t.Fatalf("the thread says the approval is kept, but the store has %s, held %+v", got.State, got.Held)
		}
		t.Logf("held: %s", said[0])
		free()
		h.WaitText(p.ID, "Run "+id+" · done in")
	case strings.Contains(said[0], "your approval is not kept") || strings.Contains(said[0], "Eos could not record your ✅ on plan "+id):
		if held {
			t.Fatalf("the thread says the approval is not kept, but the store holds it: %q", said[0])
		}
		t.Logf("not kept (the store has the plan %s): %s", got.State, said[0])
		free()
		h.Unreact("bob", p.ID, "+1")
		h.React("bob", p.ID, "+1")
		h.WaitText(p.ID, "Run "+id+" · done in")
	case strings.Contains(said[0], "Eos could not take your approval back either"):
		// Both the hold and the return to pending failed: the store still has the plan
		// approved, and the answer promised that the next start runs it.
		if got.State != store.PlanApproved {
			t.Fatalf("the thread says the store may still hold the approval, but it has %s: %q", got.State, said[0])
		}
		t.Logf("not taken back (the store has the plan %s): %s", got.State, said[0])
		free()
		h.Stop()
		h = eostest.New(t, eostest.Options{DataDir: data})
		h.WaitText(0, "Run "+id+" · done in")
	default:
		t.Fatalf("the answer neither keeps the approval nor says what the store holds: %q", said[0])
	}
	h.Idle()
	if n := runsStarted(t, h.Store, id); n != 1 {
		t.Errorf("%d runs started, want 1", n)
	}
}
