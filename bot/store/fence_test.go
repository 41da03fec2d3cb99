package store

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/eosbot/eos/bot/store/pgtest"
)

// A leader that lost its leadership (paused, then woken after another took over) writes
// nothing: its first write is refused, its hook fires, and the new leader's state stands.
func TestFencedLeaderWritesNothing(t *testing.T) {
	dsn := pgtest.Database(t)
	open := func() *Store {
		s, err := OpenPostgres(context.Background(), dsn, PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	old, next := open(), open()
	e1, err := old.Lead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var fenced atomic.Int32
	old.OnFenced(func(error) { fenced.Add(1) })
	if err := old.CreatePlan(context.Background(), samplePlan("a1")); err != nil {
		t.Fatalf("the leader's own write: %v", err)
	}
	e2, err := next.Lead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if e2 != e1+1 {
		t.Fatalf("epochs %d then %d, want consecutive", e1, e2)
	}
	// Every kind of state change the old leader could attempt is refused.
	attempts := map[string]error{
		"create plan": old.CreatePlan(context.Background(), samplePlan("b2")),
		"approve": func() error {
			_, err := old.UpdatePlan(context.Background(), "a1", func(p *Plan) error { p.State = PlanApproved; return nil })
			return err
		}(),
		"lock": func() error {
			_, err := old.TryLock(context.Background(), []string{"local/grafana"}, "a1", t0)
			return err
		}(),
		"start run": old.StartRun(context.Background(), &Run{ID: "a1", Target: "grafana", Env: "local", State: RunRunning, Started: t0}),
		"audit":     old.Append(context.Background(), Entry{Kind: "approval", PlanID: "a1"}),
	}
	for what, err := range attempts {
		var fe *FencedError
		if !errors.As(err, &fe) || fe.Mine != e1 || fe.Current != e2 {
			t.Errorf("%s by the old leader: err = %v, want FencedError{%d, %d}", what, err, e1, e2)
		}
	}
	if got := fenced.Load(); got != int32(len(attempts)) {
		t.Errorf("OnFenced fired %d times, want %d", got, len(attempts))
	}
	p, err := next.Plan(context.Background(), "a1")
	if err != nil || p.State != PlanPending {
		t.Fatalf("plan a1 after the old leader's approval = %+v, %v; want still pending", p, err)
	}
	if _, err := next.Plan(context.Background(), "b2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("plan b2 created by the fenced leader: err = %v, want not found", err)
	}
	if _, err := next.Run(context.Background(), "a1"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("run started by the fenced leader: err = %v, want not found", err)
	}
	if locks, _ := next.Locks(context.Background()); len(locks) != 0 {
		t.Fatalf("locks taken by the fenced leader: %+v", locks)
	}
	if _, err := next.UpdatePlan(context.Background(), "a1", func(p *Plan) error { p.State = PlanApproved; return nil }); err != nil {
		t.Fatalf("the new leader's write: %v", err)
	}
}

// Both backends keep the epoch across a reopen, so a restarted leader never reuses one.
func TestEpochGrowsAcrossReopen(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		e1, err := s.Lead(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CreatePlan(context.Background(), samplePlan("p1")); err != nil {
			t.Fatalf("write while leading: %v", err)
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		if cur, _ := s2.CurrentEpoch(context.Background()); cur != e1 {
			t.Fatalf("epoch after reopen = %d, want %d", cur, e1)
		}
		e2, err := s2.Lead(context.Background())
		if err != nil || e2 != e1+1 {
			t.Fatalf("Lead after reopen = %d, %v; want %d", e2, err, e1+1)
		}
	})
}
