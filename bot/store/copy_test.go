package store

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A bbolt store copied into PostgreSQL keeps every plan, run, lock, declared service and
// audit line, and the audit numbering goes on where it stopped; a second copy is refused.
func TestCopyBoltIntoPostgres(t *testing.T) {
	src, _ := freshBolt(t)
	approved := samplePlan("p1")
	approved.State = PlanApproved // a run starts only from an approved plan
	if err := src.CreatePlan(context.Background(), approved, Entry{Kind: "request", PlanID: "p1", Text: "create grafana"}); err != nil {
		t.Fatal(err)
	}
	run := &Run{ID: "p1", Target: "grafana", Env: "local", State: RunRunning, Started: t0, Keys: []string{"local/grafana"}}
	if err := src.StartRun(context.Background(), run, Entry{Kind: "run", PlanID: "p1"}); err != nil {
		t.Fatal(err)
	}
	if err := src.RecordDrift(context.Background(), []DriftRecord{{Key: "local/grafana", At: t0}}); err != nil {
		t.Fatal(err)
	}
	dst, _ := freshPostgres(t)
	copied, err := Copy(context.Background(), dst, src)
	if err != nil {
		t.Fatal(err)
	}
	if copied["plans"] != 1 || copied["runs"] != 1 || copied["locks"] != 1 || copied["audit"] != 2 || copied["drift"] != 1 {
		t.Fatalf("copied = %v", copied)
	}
	if p, err := dst.Plan(context.Background(), "p1"); err != nil || p.Text != "create grafana" {
		t.Fatalf("plan in PostgreSQL = %+v, %v", p, err)
	}
	if h, err := dst.DriftHistory(context.Background(), "local/grafana", 0); err != nil || len(h) != 1 {
		t.Fatalf("drift history in PostgreSQL = %+v, %v", h, err)
	}
	if err := dst.Append(context.Background(), Entry{Kind: "approval", At: t0.Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	audit, err := dst.Audit(context.Background(), nil)
	if err != nil || len(audit) != 3 || audit[2].Seq != 3 {
		t.Fatalf("audit after the copy = %+v, %v; want 3 lines numbered on", audit, err)
	}
	if _, err := Copy(context.Background(), dst, src); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("copying into a store with data: err = %v", err)
	}
}
