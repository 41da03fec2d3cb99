package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
)

func resizeServer(t *testing.T, h *eostest.Harness, name, size string) {
	t.Helper()
	eostest.EditCloud(t, h, "server", name, "size", size)
}

// The digest fires on its schedule (driven by an injected clock), says what is new and what
// was resolved since the previous one, runs once when it was missed, and reconcile fixes the
// drift it found.
func TestScheduledDigest(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC)) // a Monday
	h := eostest.New(t, eostest.Options{Clock: clock, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *"},
	}})
	ctx := context.Background()
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	if n := h.Engine.RunDueDigests(ctx); n != 0 {
		t.Fatalf("%d digests ran before 08:00", n)
	}
	clock.Advance(90 * time.Second)
	after := h.Last()
	if n := h.Engine.RunDueDigests(ctx); n != 1 {
		t.Fatalf("%d digests ran at 08:00:30, want 1", n)
	}
	h.WaitText(after, "Drift · Mon 23 Nov 08:00 UTC · the 1 service checked matches its declared state.")

	resizeServer(t, h, "proxy-grafana-local", "xlarge")
	clock.Advance(24 * time.Hour)
	after = h.Last()
	h.Engine.RunDueDigests(ctx)
	got := h.WaitText(after, "Drift · Tue 24 Nov 08:00 UTC · 1 of 1 services drifted · 1 new since the last digest · 0 resolved")
	if !strings.Contains(got.Text, "grafana (local) · Terraform: 1 change · new") {
		t.Errorf("digest line:\n%s", got.Text)
	}
	h.WaitPost(got.ID, func(p console.Post) bool { // the service's details, in the digest's thread
		return p.Thread == got.ID && strings.Contains(p.Text, `eoslab_server.main size "small" → "xlarge", changed outside Terraform`)
	})

	// Eos "sleeps" through three schedules: one late digest, not three.
	clock.Advance(3 * 24 * time.Hour)
	after = h.Last()
	if n := h.Engine.RunDueDigests(ctx); n != 1 {
		t.Fatalf("missed digests ran %d times, want once", n)
	}
	late := h.WaitText(after, "late: due Wed 08:00, Eos was not running")
	for _, want := range []string{"0 new since the last digest · 0 resolved · 1 still drifted, the oldest for 3 days", "grafana (local) · Terraform: 1 change · drifted since Tue 24 Nov"} {
		if !strings.Contains(late.Text, want) {
			t.Errorf("a service still drifted is not counted as known (%q):\n%s", want, late.Text)
		}
	}

	after = h.Last()
	h.Say("alice", "@eos drift history grafana")
	hist := h.WaitText(after, "Drift history of local/grafana")
	if strings.Count(hist.Text, "drifted") != 2 || strings.Count(hist.Text, "clean") != 1 {
		t.Errorf("drift history:\n%s", hist.Text)
	}

	// Reconcile re-applies the declared state; the next digest reports it resolved.
	rp, rid := eostest.Preview(t, h, "alice", "@eos reconcile grafana")
	if !strings.Contains(rp.Text, "reconcile grafana in local") || !strings.Contains(rp.Text, "Terraform | +0 ~1 −0") {
		t.Errorf("reconcile preview:\n%s", rp.Text)
	}
	h.React("bob", rp.ID, "+1")
	h.WaitText(rp.ID, "Run "+rid+" · done in")
	clock.Advance(24 * time.Hour)
	after = h.Last()
	h.Engine.RunDueDigests(ctx)
	h.WaitText(after, "the 1 service checked matches its declared state. 1 resolved since the last digest.")
}
