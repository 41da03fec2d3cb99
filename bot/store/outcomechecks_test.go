package store

import (
	"context"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// A pending check of a run's unknown outcome survives a reopen, with what it checks against
// and where it answers; ending it writes its audit line with it, and only the first end does.
func TestAPendingOutcomeCheckSurvivesAReopenAndEndsOnce(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		c := OutcomeCheck{RunID: "5e1f0a2b", Layer: executor.Salt,
			Spec:   executor.Spec{Verb: "create", Target: "grafana", Env: "local"},
			Thread: adapters.PostRef{Platform: "console", Channel: "local", ID: "4"}, Since: t0, Until: t0.Add(time.Hour)}
		if err := s.AddOutcomeCheck(context.Background(), c); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		got, err := s2.OutcomeChecks(context.Background())
		if err != nil || len(got) != 1 || got[0].RunID != c.RunID || got[0].Layer != executor.Salt || got[0].Spec.Target != "grafana" ||
			got[0].Thread != c.Thread || !got[0].Until.Equal(c.Until) {
			t.Fatalf("pending checks after a reopen = %+v, %v; want %+v", got, err, c)
		}
		entry := Entry{At: t0.Add(time.Minute), Kind: "outcome-check", PlanID: c.RunID, Text: "Salt answers again"}
		if ended, err := s2.EndOutcomeCheck(context.Background(), c.RunID, entry); err != nil || !ended {
			t.Fatalf("EndOutcomeCheck = %v, %v; want ended", ended, err)
		}
		if ended, err := s2.EndOutcomeCheck(context.Background(), c.RunID, entry); err != nil || ended {
			t.Fatalf("EndOutcomeCheck again = %v, %v; want nothing to end", ended, err)
		}
		if got, err := s2.OutcomeChecks(context.Background()); err != nil || len(got) != 0 {
			t.Errorf("pending checks after the end = %+v, %v", got, err)
		}
		audit, err := s2.Audit(context.Background(), func(e *Entry) bool { return e.Kind == "outcome-check" })
		if err != nil || len(audit) != 1 {
			t.Errorf("outcome-check audit entries = %+v, %v; want exactly one", audit, err)
		}
	})
}

// An approval held while the disk is full is kept across a reopen with why it waits, and the
// run's start clears the hold in the same transaction.
func TestAHeldApprovalSurvivesAReopenAndStartRunClearsIt(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		p := samplePlan("7f3a9c21")
		p.State, p.Approvals = PlanApproved, []Vote{{User: "bob", UserID: "u2", Platform: "console", At: t0}}
		p.Held = &Hold{Reason: "the disk holding /data/terraform is full", Dir: "/data/terraform", Since: t0}
		if err := s.CreatePlan(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		got, err := s2.Plan(context.Background(), p.ID)
		if err != nil || got.State != PlanApproved || len(got.Approvals) != 1 || got.Held == nil || got.Held.Dir != "/data/terraform" || !got.Held.Since.Equal(t0) {
			t.Fatalf("held plan after a reopen = %+v, %v", got, err)
		}
		if err := s2.StartRun(context.Background(), &Run{ID: p.ID, State: RunRunning, Target: "grafana", Env: "local", Started: t0.Add(time.Minute)}); err != nil {
			t.Fatal(err)
		}
		if got, err := s2.Plan(context.Background(), p.ID); err != nil || got.Held != nil || got.RunStarted.IsZero() {
			t.Errorf("plan after its run started = %+v, %v; want started and no longer held", got, err)
		}
	})
}
