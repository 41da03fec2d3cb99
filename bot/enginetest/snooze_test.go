package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// Removing a 🔕 lifts the snooze: the service is back in the digest's list, the thread says
// who lifted it, and the audit log records it. A redelivered removal says nothing again, and
// someone who could not have snoozed the service cannot lift it.
func TestRemovingSnoozeLiftsIt(t *testing.T) {
	t.Parallel()
	h, clock := dailyDigest(t)
	resizeServer(t, h, "proxy-grafana-local", "xlarge")
	head := nextDigest(t, h, clock, 90*time.Second, "1 new since the last digest")
	grafana := serviceReply(h, head, "grafana")

	after := h.Last()
	h.React("bob", grafana.ID, "🔕")
	h.WaitText(after, "Snoozed by @bob until Mon 30 Nov")

	after = h.Last()
	h.Unreact("carol", grafana.ID, "🔕") // not a requester: could not have snoozed it
	h.Idle()
	if sn, err := h.Store.Snoozes(context.Background()); err != nil || len(sn) != 1 {
		t.Fatalf("after carol's removal the snoozes are %+v (%v), want bob's still", sn, err)
	}

	h.Unreact("bob", grafana.ID, "🔕")
	h.Unreact("bob", grafana.ID, "🔕") // delivered again
	h.WaitText(after, "Snooze lifted by @bob", "grafana in local is back in the digest's list")
	h.Idle()
	lifted := 0
	for _, p := range h.Console.Posts() {
		if p.ID > after && strings.Contains(p.Text, "Snooze lifted") {
			lifted++
			if p.Thread != head.ID {
				t.Errorf("the lift was said outside the digest's thread: %+v", p)
			}
		}
	}
	if lifted != 1 {
		t.Errorf("%d posts say the snooze was lifted, want 1", lifted)
	}
	entries, err := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.Kind == "unsnooze" })
	if err != nil || len(entries) != 1 || entries[0].User != "bob" || entries[0].Service != "grafana" {
		t.Errorf("unsnooze audit entries = %+v (%v), want one by bob about grafana", entries, err)
	}

	after = h.Last()
	h.Say("alice", "@eos drift snoozed")
	h.WaitText(after, "Nothing is snoozed")
	nextDigest(t, h, clock, 24*time.Hour, "0 new since the last digest · 0 resolved · 1 still drifted, the oldest for 1 day",
		"grafana (local) · Terraform: 1 change · drifted since Mon 23 Nov")
}
