package enginetest_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// postText is post id as it reads now, after every edit.
func postText(t *testing.T, h *eostest.Harness, id int) string {
	t.Helper()
	for _, p := range h.Console.Posts() {
		if p.ID == id {
			return p.Text
		}
	}
	t.Fatalf("no post %d", id)
	return ""
}

// recorded waits until plan id's preview is recorded in the store: it is recorded just after
// it is posted, and only a recorded preview's reactions count.
func recorded(t *testing.T, h *eostest.Harness, id string) {
	t.Helper()
	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for range tick.C {
		if p, err := h.Store.Plan(context.Background(), id); err == nil && p.Preview.ID != "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("plan %s never recorded its preview", id)
		}
	}
}

// A policy reloaded while a plan waits governs it at once: raised from one approval to two,
// one ✅ does not run the plan, the second does. Before, the count was stored with the plan
// when it was made.
func TestAPolicyReloadedWhileAPlanWaitsGovernsIt(t *testing.T) {
	t.Parallel()
	one := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol"}, Approvals: 1}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: one})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	if !strings.Contains(p.Text, "Needs 1 approval from @bob or @carol") {
		t.Fatalf("preview under the first policy:\n%s", p.Text)
	}
	recorded(t, h, id)
	two := one
	two.Default.Approvals = 2
	h.Engine.SetPolicy(context.Background(), two)
	if got := postText(t, h, p.ID); !strings.Contains(got, "Needs 2 approvals from @bob or @carol") {
		t.Errorf("the preview was not shown again under the reloaded policy:\n%s", got)
	}
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅ · waiting for one more")
	after := h.Last()
	h.Say("alice", "@eos why "+id)
	h.WaitText(after, "Rule: Needs 2 approvals from @bob or @carol", "Approved by @bob at ", "(1 of 2)")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("one approval ran a plan the policy in force asks two for: %+v", r)
	}
	h.React("carol", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err != nil || !slices.Equal(r.Approvers, []string{"bob", "carol"}) {
		t.Fatalf("run = %+v, %v; want one approved by bob and carol", r, err)
	}
}

// Approvals from people the policy in force no longer admits stop counting, and the preview
// says whose: carol approved, the reload drops her from the approvers, and bob's one ✅ does not
// run the plan with [carol bob], as it did before.
func TestApprovalsThePolicyNoLongerAdmitsStopCounting(t *testing.T) {
	t.Parallel()
	first := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol", "dave"}, Approvals: 2}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: first})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("carol", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @carol ✅")

	recorded(t, h, id)
	narrowed := first
	narrowed.Default.Approvers = []string{"bob", "dave"}
	h.Engine.SetPolicy(context.Background(), narrowed)
	if got := postText(t, h, p.ID); !strings.Contains(got, "@carol no longer counts: not an approver under the current policy") {
		t.Errorf("the preview does not say carol's approval stopped counting:\n%s", got)
	}
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅ · waiting for one more", "@carol no longer counts")
	after := h.Last()
	h.Say("alice", "@eos why "+id)
	h.WaitText(after, "Approved by @carol", "@bob", "(1 of 2)", "@carol no longer counts: not an approver under the current policy.")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("carol's approval still counted after the policy dropped her: %+v", r)
	}
	h.React("dave", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err != nil || !slices.Equal(r.Approvers, []string{"bob", "dave"}) {
		t.Fatalf("run = %+v, %v; want approved by bob and dave only", r, err)
	}
}

// A policy loosened while a plan waits lets the approvals it has run it.
func TestAPolicyLoosenedWhileAPlanWaitsRunsIt(t *testing.T) {
	t.Parallel()
	two := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol"}, Approvals: 2}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: two})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	recorded(t, h, id)
	one := two
	one.Default.Approvals = 1
	h.Engine.SetPolicy(context.Background(), one)
	h.WaitText(p.ID, "Plan "+id+": under the current policy the approvals it has suffice (1 of 1: @bob ✅). Running it.")
	h.WaitText(p.ID, "Run "+id+" · done in")
}

// At start-up an approved plan that never started is judged by the policy configured now:
// carol's approval, given under a policy that named her, does not run it under one that names
// only bob; it waits again, and its approval stays recorded for the record.
func TestApprovedPlanIsJudgedByTheCurrentPolicyAfterRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	_, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.Stop()
	approveOffline(t, dir, id, store.Vote{User: "carol", UserID: "carol", Platform: "console"})

	strict := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1}, Envs: map[string]bot.EnvPolicy{}}
	h2 := eostest.New(t, eostest.Options{DataDir: dir, Policy: strict})
	h2.WaitText(0, "Plan "+id+" was approved, but under the current policy its approvals do not suffice (0 of 1 · waiting for one more).",
		"@carol no longer counts: not an approver under the current policy.")
	h2.Idle()
	if r, err := h2.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("carol's approval ran the plan under a policy that names only bob: %+v", r)
	}
	if p, _ := h2.Store.Plan(context.Background(), id); p.State != store.PlanPending {
		t.Errorf("plan = %s, want pending", p.State)
	}
}

// A waiting plan's expiry follows the ttl of the policy in force now, from the plan's
// creation: shortened to 5 minutes, a plan asked 10 minutes ago expires at once.
func TestAShorterTTLExpiresAWaitingPlan(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	long := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1, TTL: time.Hour}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: long, Clock: clock})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	recorded(t, h, id)
	if !strings.Contains(p.Text, "expires 15:00 UTC") {
		t.Fatalf("preview under a one-hour ttl:\n%s", p.Text)
	}
	clock.Advance(10 * time.Minute)
	short := long
	short.Default.TTL = 5 * time.Minute
	h.Engine.SetPolicy(context.Background(), short)
	if pl, _ := h.Store.Plan(context.Background(), id); pl.State != store.PlanExpired {
		t.Fatalf("plan = %s after the ttl shrank below its age, want expired", pl.State)
	}
	waitPreview(t, h, p, "expired at 14:05 UTC")
	h.React("bob", p.ID, "+1")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("an expired plan ran: %+v", r)
	}
}
