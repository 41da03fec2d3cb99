package store

import (
	"context"
	"testing"

	"github.com/eosbot/eos/executor"
)

// FinishRun records on the run's plan how it ended, in the same transaction, so that the
// plan's preview can say it; a failed layer whose rollback succeeded says so.
func TestFinishRunRecordsThePlansOutcome(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		for _, c := range []struct {
			id     string
			state  RunState
			layers []executor.LayerResult
			want   Outcome
		}{
			{"done", RunDone, nil, Outcome{State: RunDone}},
			{"rolled", RunFailed, []executor.LayerResult{{Layer: executor.Terraform, Status: executor.ResultFailed, Rollback: "nothing remains", RolledBack: true}},
				Outcome{State: RunFailed, RolledBack: true}},
			{"rollback_failed", RunFailed, []executor.LayerResult{{Layer: executor.Terraform, Status: executor.ResultFailed, Rollback: "rollback failed: state locked"}},
				Outcome{State: RunFailed}},
			{"halted", RunFailed, []executor.LayerResult{{Layer: executor.Terraform, Status: executor.ResultHalted, Rollback: "skipped"}},
				Outcome{State: RunFailed}},
			{"stopped", RunStopped, nil, Outcome{State: RunStopped}},
		} {
			p := samplePlan(c.id)
			p.State = PlanApproved
			if err := s.CreatePlan(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			if err := s.StartRun(context.Background(), &Run{ID: c.id, State: RunRunning, Target: c.id, Env: "local", Started: t0}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.FinishRun(context.Background(), c.id, c.state, c.layers, t0, nil); err != nil {
				t.Fatal(err)
			}
			got, err := s.Plan(context.Background(), c.id)
			if err != nil || got.Outcome == nil || *got.Outcome != c.want {
				t.Errorf("%s: plan after FinishRun = %+v (err %v), want outcome %+v", c.id, got, err, c.want)
			}
		}
		// A run without a plan (none recorded) still finishes.
		if err := s.StartRun(context.Background(), &Run{ID: "orphan", State: RunRunning, Target: "x", Env: "local", Started: t0}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FinishRun(context.Background(), "orphan", RunDone, nil, t0, nil); err != nil {
			t.Errorf("finishing a run without a plan: %v", err)
		}
	})
}
