package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A 🔧 on a drift digest's reply plans the reconcile as any request would, so a policy that
// denies reconciling says so in the digest's thread: ⛔ with the author's message and the rule
// instead of the reaction prompt, and an approval is refused; the server stays as it was
// edited by hand, and no run starts.
func TestAPolicyDeniesTheReconcileAWrenchPlans(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "drift.rego", `package eos.drift

deny contains sprintf("%s of drift needs a change ticket first", [input.request.verb]) if input.request.verb == "reconcile"
`)
	clock := eostest.NewClock(time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{Clock: clock, Policy: wrenchPolicy, PolicyCode: set, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *", Parallelism: 2, CheckTimeout: time.Minute},
	}})
	eostest.Deploy(t, h, "grafana")
	h.Engine.RunDueDigests(context.Background()) // the first call starts the schedule
	resizeServer(t, h, "proxy-grafana-local", "xlarge")
	head := nextDigest(t, h, clock, 90*time.Second, "1 new since the last digest")
	reply := serviceReply(h, head, "grafana")

	after := h.Last()
	h.React("alice", reply.ID, "🔧")
	p := h.WaitText(after, "reconcile grafana in local · asked by @alice",
		"⛔ The policy denies this plan: reconcile of drift needs a change ticket first (eos.drift.deny, drift.rego:3)")
	if strings.Contains(p.Text, "React ✅") {
		t.Errorf("the denied reconcile offers the reaction prompt:\n%s", p.Text)
	}
	if p.Thread != head.ID {
		t.Errorf("the reconcile preview is in thread %d, want the digest's %d", p.Thread, head.ID)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Plan "+id+" cannot be approved: the policy denies it.", "⛔ reconcile of drift needs a change ticket first")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("the denied reconcile ran: %+v", r)
	}
	if pl, _ := h.Store.Plan(context.Background(), id); pl.State != store.PlanPending || len(pl.Approvals) != 0 {
		t.Errorf("plan = %s with %d approvals, want pending with none counted", pl.State, len(pl.Approvals))
	}
	if got := serverSize(t, h, "proxy-grafana-local"); got != "xlarge" {
		t.Errorf("the server is %q after the denied reconcile, want it left xlarge", got)
	}
}
