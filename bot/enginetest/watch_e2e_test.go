package enginetest_test

import (
	"context"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// A run through the engine publishes its layers' events and output lines, and ends with
// Finished once its outcome is stored; a page opened just after gets all that as its past.
func TestWatchRunThroughEngine(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()

	past, live, stop := h.Engine.Watch(id)
	defer stop()
	if _, open := <-live; open {
		t.Error("the live channel of a finished run is open")
	}
	if len(past) == 0 || !past[len(past)-1].Finished {
		t.Fatalf("the past of a finished run does not end with Finished: %+v", past)
	}
	if r, err := h.Store.Run(context.Background(), id); err != nil || r.Finished.IsZero() {
		t.Errorf("Finished was published before the outcome was stored: %+v, %v", r, err)
	}
	events, lines := 0, 0
	for _, u := range past {
		if u.Event.Layer == executor.Terraform {
			events++
		}
		if u.Line != "" && u.Layer == executor.Terraform {
			lines++
		}
	}
	if events == 0 {
		t.Errorf("no Terraform event among %d updates", len(past))
	}
	if lines == 0 {
		t.Errorf("no Terraform output line among %d updates", len(past))
	}
	// The same lines are in the store, before the outcome, for pages on other replicas and
	// after the hub forgets the run.
	stored, err := h.Store.Output(context.Background(), id, 0)
	if err != nil || len(stored) != lines {
		t.Errorf("the store holds %d output lines (%v), the hub published %d", len(stored), err, lines)
	}
}
