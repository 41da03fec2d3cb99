package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// OpenPlans reads only the plans that can still change, and always agrees with a scan of
// every plan: a plan leaves the index when it is rejected, expires, or its run ends, and an
// approval returned to pending (a busy lock) keeps it in.
func TestOpenPlansFollowEveryChange(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		for i := range 6 {
			p := samplePlan(fmt.Sprintf("p%d", i))
			if err := s.CreatePlan(context.Background(), p); err != nil {
				t.Fatal(err)
			}
		}
		set := func(id string, st PlanState) {
			t.Helper()
			if _, err := s.UpdatePlan(context.Background(), id, func(p *Plan) error { p.State = st; return nil }); err != nil {
				t.Fatal(err)
			}
		}
		set("p1", PlanRejected)
		set("p2", PlanExpired)
		set("p3", PlanApproved) // approved, its run not started: open
		set("p4", PlanApproved)
		run := &Run{ID: "p4", State: RunRunning, Started: t0, Keys: []string{"local/grafana"}}
		if err := s.StartRun(context.Background(), run); err != nil {
			t.Fatal(err)
		}
		check := func(want ...string) {
			t.Helper()
			open, err := s.OpenPlans(context.Background(), func(*Plan) bool { return true })
			if err != nil {
				t.Fatal(err)
			}
			all, err := s.Plans(context.Background(), func(p *Plan) bool { return p.Open() })
			if err != nil {
				t.Fatal(err)
			}
			ids := func(ps []*Plan) (out []string) {
				for _, p := range ps {
					out = append(out, p.ID)
				}
				return out
			}
			if !slices.Equal(ids(open), want) || !slices.Equal(ids(all), want) {
				t.Errorf("open plans %v, a scan finds %v; want %v", ids(open), ids(all), want)
			}
		}
		check("p0", "p3", "p4", "p5")
		if _, err := s.FinishRun(context.Background(), "p4", RunDone, nil, t0.Add(time.Minute), nil); err != nil {
			t.Fatal(err)
		}
		check("p0", "p3", "p5")
		set("p3", PlanPending) // could not start: back to pending, still open
		set("p5", PlanCancelled)
		check("p0", "p3")
		pending, err := s.OpenPlans(context.Background(), func(p *Plan) bool { return p.State == PlanPending && p.ID != "p0" })
		if err != nil || len(pending) != 1 || pending[0].ID != "p3" {
			t.Errorf("OpenPlans with a filter = %v, %v; want p3", pending, err)
		}
	})
}

// A store written before the index existed is indexed when it is opened: its pending plans
// and the approved one whose run is still going are open; an approved plan whose run ended
// before plans recorded outcomes is not.
func TestOpenPlansOfAnOlderStore(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		for _, id := range []string{"old-pending", "old-ran", "old-running", "old-rejected"} {
			if err := s.CreatePlan(context.Background(), samplePlan(id)); err != nil {
				t.Fatal(err)
			}
		}
		// What an older Eos left: plans and runs, no index, no outcomes.
		if err := s.kv.update(context.Background(), func(tx txn) error {
			for id, st := range map[string]PlanState{"old-ran": PlanApproved, "old-running": PlanApproved, "old-rejected": PlanRejected} {
				p, err := get[Plan](tx, bucketPlans, id)
				if err != nil {
					return err
				}
				p.State = st
				if err := put(tx, bucketPlans, id, p); err != nil {
					return err
				}
			}
			for id, st := range map[string]RunState{"old-ran": RunDone, "old-running": RunRunning} {
				if err := put(tx, bucketRuns, id, &Run{ID: id, State: st, Started: t0}); err != nil {
					return err
				}
			}
			var keys [][]byte
			if err := tx.bucket(bucketOpenPlans).Scan(nil, func(k, _ []byte) bool { keys = append(keys, append([]byte(nil), k...)); return true }); err != nil {
				return err
			}
			for _, k := range keys {
				if err := tx.bucket(bucketOpenPlans).Delete(k); err != nil {
					return err
				}
			}
			return tx.bucket(bucketMeta).Delete(keyOpenPlansIndexed)
		}); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s2, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		got, err := s2.OpenPlans(context.Background(), func(*Plan) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, p := range got {
			ids = append(ids, p.ID)
		}
		if want := []string{"old-pending", "old-running"}; !slices.Equal(ids, want) {
			t.Errorf("after reopening an older store, open plans = %v, want %v", ids, want)
		}
	})
}
