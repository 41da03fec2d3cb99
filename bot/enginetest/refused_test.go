package enginetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A plan the real Terraform refuses because of what was asked (a data volume cannot shrink)
// is shown like any plan that would fail: ⛔ with the provider's reason said once, no approval
// offered, stored blocked. Before, the answer was "planning failed: …" with the reason
// repeated and no plan to look at.
func TestAShrinkTerraformRefusesIsBlockedWithItsReason(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create jenkins --storage 300G")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	after := h.Last()
	h.Say("alice", "@eos update jenkins --storage 200G")
	blocked := h.WaitText(after, "⛔ This plan would fail, so it cannot be approved: Terraform: ", "Volumes cannot shrink: size_gb would go from 300 to 200")
	if strings.Count(blocked.Text, "cannot shrink") != 1 || strings.Contains(blocked.Text, "React ✅") || strings.Contains(blocked.Text, "planning failed") {
		t.Errorf("the refused plan's preview:\n%s\nwant the reason once and no approval offered", blocked.Text)
	}
	m := eostest.PlanIDRe.FindStringSubmatch(blocked.Text)
	if m == nil {
		t.Fatalf("no plan id in:\n%s", blocked.Text)
	}
	if got, err := h.Store.Plan(context.Background(), m[1]); err != nil || got.State != store.PlanBlocked {
		t.Fatalf("plan %s stored as %+v (%v), want blocked", m[1], got, err)
	}
}
