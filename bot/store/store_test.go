package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

var t0 = time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)

func samplePlan(id string) *Plan {
	return &Plan{
		ID: id, State: PlanPending, Text: "create grafana", Needed: 1,
		Requester: adapters.User{ID: "u1", Name: "alice"},
		Preview:   adapters.PostRef{Platform: "console", Channel: "local", ID: "2"},
		Plan:      executor.Plan{Spec: executor.Spec{Verb: "create", Target: "grafana", Env: "local"}, Hash: "abc"},
		Created:   t0, Expires: t0.Add(30 * time.Minute),
	}
}

func TestPlanSurvivesReopenAndIsFoundByPost(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		if err := s.CreatePlan(context.Background(), samplePlan("7f3a9c21")); err != nil {
			t.Fatal(err)
		}
		if err := s.CreatePlan(context.Background(), samplePlan("7f3a9c21")); err == nil {
			t.Fatal("creating the same plan id twice succeeded")
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		p, err := s2.PlanByPost(context.Background(), adapters.PostRef{Platform: "console", Channel: "local", ID: "2"})
		if err != nil {
			t.Fatal(err)
		}
		if p.ID != "7f3a9c21" || p.Requester.Name != "alice" || p.Plan.Spec.Target != "grafana" {
			t.Fatalf("plan after reopen = %+v", p)
		}
		if _, err := s2.Plan(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("missing plan error = %v, want ErrNotFound", err)
		}
	})
}

func TestSecondOpenFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eos.db")
	s, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	_, err = Open(path, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "another Eos process holds it") {
		t.Fatalf("second open error = %v", err)
	}
	if held := (*HeldError)(nil); !errors.As(err, &held) || held.Path != path {
		t.Fatalf("second open error %v is not a HeldError naming %s: the tools could not tell to ask the running Eos", err, path)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("second open took %s", time.Since(start))
	}
}

func TestUpdatePlanIsCheckAndSet(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		if err := s.CreatePlan(context.Background(), samplePlan("p1")); err != nil {
			t.Fatal(err)
		}
		// Twenty goroutines race to approve; exactly one moves the plan out of pending.
		var wg sync.WaitGroup
		var mu sync.Mutex
		winners := 0
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.UpdatePlan(context.Background(), "p1", func(p *Plan) error {
					if p.State != PlanPending {
						return errors.New("not pending")
					}
					p.State = PlanApproved
					return nil
				})
				if err == nil {
					mu.Lock()
					winners++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if winners != 1 {
			t.Fatalf("%d goroutines approved the plan, want 1", winners)
		}
	})
}

func TestStartRunTakesLockOnceAndFinishReleasesIt(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		run := &Run{ID: "r1", State: RunRunning, Target: "grafana", Env: "local", Started: t0}
		if err := s.StartRun(context.Background(), run); err != nil {
			t.Fatal(err)
		}
		if err := s.StartRun(context.Background(), run); !errors.Is(err, ErrAlreadyRun) {
			t.Fatalf("second StartRun error = %v, want ErrAlreadyRun", err)
		}
		other := &Run{ID: "r2", State: RunRunning, Target: "grafana", Env: "local", Started: t0}
		var locked *LockedError
		if err := s.StartRun(context.Background(), other); !errors.As(err, &locked) || locked.Lock.Holder != "r1" {
			t.Fatalf("concurrent StartRun error = %v, want locked by r1", err)
		}
		spec := executor.Spec{Verb: "create", Target: "grafana", Env: "local", Units: []executor.Unit{{Service: "authentik"}, {Service: "grafana"}}}
		if _, err := s.FinishRun(context.Background(), "r1", RunDone, nil, t0.Add(time.Minute), &spec); err != nil {
			t.Fatal(err)
		}
		if err := s.StartRun(context.Background(), other); err != nil {
			t.Fatalf("StartRun after release: %v", err)
		}
		d, err := s.Declared(context.Background(), "local/authentik")
		if err != nil || d.RunID != "r1" || d.Spec.Target != "authentik" || len(d.Spec.Units) != 1 {
			t.Fatalf("declared authentik = %+v, %v", d, err)
		}
		all, _ := s.AllDeclared(context.Background())
		if len(all) != 2 {
			t.Fatalf("AllDeclared = %d records, want 2", len(all))
		}
	})
}

func TestTryLock(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		unlock, err := s.TryLock(context.Background(), []string{"production/nextcloud"}, "a", t0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.TryLock(context.Background(), []string{"production/nextcloud"}, "b", t0); err == nil || !strings.Contains(err.Error(), "locked by plan a") {
			t.Fatalf("second lock error = %v", err)
		}
		if err := unlock(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.TryLock(context.Background(), []string{"production/nextcloud"}, "b", t0); err != nil {
			t.Fatalf("lock after unlock: %v", err)
		}
	})
}

// A run locks its target and every dependency, all or none: a second run that shares one
// unit takes none of its own, and is told who holds the shared one.
func TestRunsSharingADependencyLockAllOrNothing(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		a := &Run{ID: "a", Env: "production", Target: "nextcloud", Started: t0, Keys: []string{"production/nextcloud", "production/authentik"}}
		if err := s.StartRun(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		b := &Run{ID: "b", Env: "production", Target: "grafana", Started: t0, Keys: []string{"production/grafana", "production/authentik"}}
		var locked *LockedError
		if err := s.StartRun(context.Background(), b); !errors.As(err, &locked) || locked.Lock.Key != "production/authentik" || locked.Lock.Holder != "a" {
			t.Fatalf("StartRun of a run sharing authentik = %v, want authentik locked by a", err)
		}
		locks, _ := s.Locks(context.Background())
		if len(locks) != 2 {
			t.Fatalf("locks = %+v: the refused run must take none (grafana stays free)", locks)
		}
		if _, err := s.FinishRun(context.Background(), "a", RunDone, nil, t0, nil); err != nil {
			t.Fatal(err)
		}
		if locks, _ := s.Locks(context.Background()); len(locks) != 0 {
			t.Fatalf("a finished run left locks: %+v", locks)
		}
		if err := s.StartRun(context.Background(), b); err != nil {
			t.Fatalf("StartRun after a finished: %v", err)
		}
	})
}

func TestAuditAppendsInOrder(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		for _, k := range []string{"request", "preview", "approval"} {
			if err := s.Append(context.Background(), Entry{Kind: k, At: t0, Text: k}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Audit(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].Kind != "request" || got[2].Kind != "approval" || got[2].Seq != 3 {
			t.Fatalf("audit = %+v", got)
		}
	})
}

// A run's start and its audit line commit together; a refused start writes neither.
func TestStartRunCommitsItsAuditLine(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		entry := Entry{Kind: "run", PlanID: "a", At: t0, Text: "run started"}
		if err := s.StartRun(context.Background(), &Run{ID: "a", Env: "local", Target: "grafana", Started: t0}, entry); err != nil {
			t.Fatal(err)
		}
		if err := s.StartRun(context.Background(), &Run{ID: "a", Env: "local", Target: "grafana", Started: t0}, entry); !errors.Is(err, ErrAlreadyRun) {
			t.Fatalf("second StartRun = %v, want ErrAlreadyRun", err)
		}
		got, _ := s.Audit(context.Background(), nil)
		if len(got) != 1 || got[0].Kind != "run" {
			t.Fatalf("audit = %+v, want exactly the first start", got)
		}
	})
}

// A run starts only from a plan approved now, once: a plan cancelled (or sent back to
// pending) before its run started is refused, takes no lock, and writes no audit line; the
// plan records when its run started, so a cancel after that sees it.
func TestStartRunOnlyFromAnApprovedPlan(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		for _, state := range []PlanState{PlanPending, PlanCancelled} {
			p := samplePlan("c-" + string(state))
			p.State = state
			if err := s.CreatePlan(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			err := s.StartRun(context.Background(), &Run{ID: p.ID, Env: "local", Target: "grafana", Started: t0, Keys: []string{"local/grafana"}}, Entry{Kind: "run", PlanID: p.ID})
			if !errors.Is(err, ErrNotApproved) {
				t.Fatalf("StartRun of a %s plan = %v, want ErrNotApproved", state, err)
			}
		}
		if locks, _ := s.Locks(context.Background()); len(locks) != 0 {
			t.Fatalf("a refused start took locks: %+v", locks)
		}
		if got, _ := s.Audit(context.Background(), nil); len(got) != 0 {
			t.Fatalf("a refused start wrote audit lines: %+v", got)
		}
		p := samplePlan("ok")
		p.State = PlanApproved
		if err := s.CreatePlan(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		if err := s.StartRun(context.Background(), &Run{ID: "ok", Env: "local", Target: "grafana", Started: t0, Keys: []string{"local/grafana"}}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Plan(context.Background(), "ok"); !got.RunStarted.Equal(t0) {
			t.Errorf("plan's RunStarted = %v, want %v", got.RunStarted, t0)
		}
	})
}
