package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/eosbot/eos/bot/store/pgtest"
)

// Two processes on one PostgreSQL store race to approve the same plans and to lock the same
// units, each with many goroutines: every plan is approved once and every lock held by one.
func TestTwoProcessesRaceOnePostgresStore(t *testing.T) {
	dsn := pgtest.Database(t)
	s, err := OpenPostgres(context.Background(), dsn, PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const plans = 20
	for i := range plans {
		if err := s.CreatePlan(context.Background(), samplePlan(fmt.Sprintf("p%02d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var outs [2]string
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestRaceHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), "EOS_RACE_DSN="+dsn, fmt.Sprintf("EOS_RACE_NAME=proc%d", i))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("helper process %d: %v\n%s", i, err, out)
			}
			outs[i] = string(out)
		}()
	}
	wg.Wait()
	for i := range plans {
		p, err := s.Plan(context.Background(), fmt.Sprintf("p%02d", i))
		if err != nil {
			t.Fatal(err)
		}
		if p.State != PlanApproved || len(p.Approvals) != 1 {
			t.Errorf("plan %s: state %s with %d approvals, want approved once", p.ID, p.State, len(p.Approvals))
		}
	}
	locks, err := s.Locks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != plans {
		t.Fatalf("%d locks held, want %d (one per unit)", len(locks), plans)
	}
	// Each unit's lock is held by the one goroutine that reported winning it.
	won := strings.Count(outs[0], "locked ") + strings.Count(outs[1], "locked ")
	if won != plans {
		t.Fatalf("%d lock wins reported across both processes, want %d:\n%s\n%s", won, plans, outs[0], outs[1])
	}
}

// TestRaceHelperProcess is one of the racing processes of TestTwoProcessesRaceOnePostgresStore.
func TestRaceHelperProcess(t *testing.T) {
	dsn := os.Getenv("EOS_RACE_DSN")
	if dsn == "" {
		return // not a helper: nothing to do (an empty test, not a skip)
	}
	name := os.Getenv("EOS_RACE_NAME")
	s, err := OpenPostgres(context.Background(), dsn, PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				id := fmt.Sprintf("p%02d", i)
				_, err := s.UpdatePlan(context.Background(), id, func(p *Plan) error {
					if p.State != PlanPending {
						return errors.New("not pending")
					}
					p.State, p.Approvals = PlanApproved, append(p.Approvals, Vote{User: fmt.Sprintf("%s-%d", name, g)})
					return nil
				})
				if err != nil && err.Error() != "not pending" {
					t.Errorf("approving %s: %v", id, err)
				}
				holder := fmt.Sprintf("%s-%d", name, g)
				_, err = s.TryLock(context.Background(), []string{"local/unit" + id}, holder, t0)
				var le *LockedError
				switch {
				case err == nil:
					fmt.Printf("locked %s by %s\n", id, holder)
				case !errors.As(err, &le):
					t.Errorf("locking %s: %v", id, err)
				}
			}
		}()
	}
	wg.Wait()
}
