package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func policyInputAt(id string, at time.Time) *PolicyInput {
	return &PolicyInput{PlanID: id, At: at, Service: "nextcloud", Env: "production",
		Input:     json.RawMessage(fmt.Sprintf(`{"plan":{"id":%q}}`, id)),
		PolicySHA: "abc", Decisions: []PolicyDecision{{Kind: "warn", Msg: "a firewall changes", Rule: "eos.firewall.warn"}}}
}

func replayIDs(t *testing.T, s *Store, since time.Time) []string {
	t.Helper()
	var ids []string
	err := s.EachPolicyInput(context.Background(), since, func(in *PolicyInput) error {
		var doc struct{ Plan struct{ ID string } }
		if err := json.Unmarshal(in.Input, &doc); err != nil || doc.Plan.ID != in.PlanID {
			t.Errorf("%s's document came back as %s (%v)", in.PlanID, in.Input, err)
		}
		ids = append(ids, in.PlanID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// Kept input documents come back oldest first from any time on, across hours (within an hour
// by time to the nanosecond, not by key text), with what the policy in force decided; a
// caller's error stops the walk; pruning forgets those before the cut-off, keeping one made
// exactly at it, and forgets hours left empty.
func TestPolicyInputsReplayAndPrune(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		ats := map[string]time.Time{
			"p1": t0,
			"p2": t0.Add(30 * time.Minute),
			"p3": t0.Add(30*time.Minute + 500*time.Millisecond),
			"p4": t0.Add(26 * time.Hour),
			"p5": t0.Add(40 * 24 * time.Hour),
		}
		for _, id := range []string{"p5", "p3", "p1", "p4", "p2"} {
			if err := s.KeepPolicyInput(context.Background(), policyInputAt(id, ats[id])); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.KeepPolicyInput(context.Background(), &PolicyInput{PlanID: "p6", At: t0}); err == nil {
			t.Error("a policy input without a document was kept")
		}
		if got := replayIDs(t, s, time.Time{}); !slices.Equal(got, []string{"p1", "p2", "p3", "p4", "p5"}) {
			t.Errorf("every input: %v, want p1…p5 oldest first", got)
		}
		if got := replayIDs(t, s, ats["p3"]); !slices.Equal(got, []string{"p3", "p4", "p5"}) {
			t.Errorf("since p3: %v, want p3 p4 p5", got)
		}
		var first *PolicyInput
		stop := errors.New("stop")
		if err := s.EachPolicyInput(context.Background(), t0, func(in *PolicyInput) error { first = in; return stop }); err != stop {
			t.Errorf("a caller's error: %v, want it back", err)
		}
		if first == nil || first.PolicySHA != "abc" || len(first.Decisions) != 1 || first.Decisions[0].Rule != "eos.firewall.warn" ||
			!first.At.Equal(t0) || first.Env != "production" {
			t.Errorf("the first input came back as %+v", first)
		}

		n, err := s.PrunePolicyInputs(context.Background(), ats["p3"])
		if err != nil || n != 2 {
			t.Errorf("PrunePolicyInputs = %d, %v; want p1 and p2 forgotten", n, err)
		}
		if got := replayIDs(t, s, time.Time{}); !slices.Equal(got, []string{"p3", "p4", "p5"}) {
			t.Errorf("after pruning: %v, want p3 p4 p5", got)
		}
		if n, err := s.PrunePolicyInputs(context.Background(), ats["p5"].Add(-time.Hour)); err != nil || n != 2 {
			t.Errorf("PrunePolicyInputs = %d, %v; want p3 and p4 forgotten", n, err)
		}
		if hours, err := s.policyHours(context.Background()); err != nil || len(hours) != 1 {
			t.Errorf("hours left: %v, %v; want only p5's", hours, err)
		}
	})
}

// A plan and its policy input document are stored in one transaction: both, or neither (a
// plan whose id is taken keeps no document).
func TestCreatePlanKeepingStoresThePlanAndItsDocumentTogether(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		p := samplePlan("kp1")
		if err := s.CreatePlanKeeping(context.Background(), p, policyInputAt("kp1", t0)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Plan(context.Background(), "kp1"); err != nil || got.ID != "kp1" {
			t.Fatalf("Plan(kp1) = %v, %v", got, err)
		}
		if err := s.CreatePlanKeeping(context.Background(), samplePlan("kp1"), policyInputAt("kp1-again", t0.Add(time.Minute))); err == nil {
			t.Fatal("a second plan with the same id was stored")
		}
		if err := s.CreatePlanKeeping(context.Background(), samplePlan("kp2"), &PolicyInput{PlanID: "kp2", At: t0}); err == nil {
			t.Error("a plan was stored with a policy input without a document")
		}
		if _, err := s.Plan(context.Background(), "kp2"); err == nil {
			t.Error("plan kp2 was stored though its policy input was refused")
		}
		if got := replayIDs(t, s, time.Time{}); !slices.Equal(got, []string{"kp1"}) {
			t.Errorf("kept documents %v, want only kp1's", got)
		}
	})
}

// Two plans judged in the same hour keep their documents at the same time without one
// waiting for the other: on PostgreSQL every document used to rewrite its hour's row (a
// count), so the second transaction waited on the first's row lock and then one of them
// failed to serialize; in a burst of 500 requests a plan failed once its retries ran out.
func TestDocumentsOfOneHourAreKeptAtOnceWithoutColliding(t *testing.T) {
	s, _ := freshPostgres(t)
	if err := s.KeepPolicyInput(context.Background(), policyInputAt("a", t0)); err != nil {
		t.Fatal(err)
	}
	var runs atomic.Int32
	inside, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- s.update(context.Background(), func(tx txn) error {
			if runs.Add(1) > 1 {
				return keepPolicyInputTx(tx, policyInputAt("b", t0.Add(time.Second)))
			}
			if err := keepPolicyInputTx(tx, policyInputAt("b", t0.Add(time.Second))); err != nil {
				return err
			}
			close(inside)
			<-release // held open until the second has committed
			return nil
		})
	}()
	<-inside
	second := make(chan error, 1)
	go func() { second <- s.KeepPolicyInput(context.Background(), policyInputAt("c", t0.Add(2*time.Second))) }()
	select {
	case err := <-second:
		if err != nil {
			t.Errorf("the second document: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the second document waited for the first transaction to end")
	}
	close(release)
	if err := <-first; err != nil {
		t.Errorf("the first document: %v", err)
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the first transaction ran %d times: the two collided", n)
	}
	if got := replayIDs(t, s, t0); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("kept %v, want a, b, c", got)
	}
}
