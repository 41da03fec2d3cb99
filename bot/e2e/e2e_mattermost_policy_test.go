package e2e_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// The approval policy against a real Mattermost server: the engine judges people by platform
// and the server's immutable user ID, and resolves the handles a policy names through the
// server at the moment of each reaction (bot/identity.go).

// A configured policy governs the default environment "local" too (no built-in "anyone, self
// included" survives), and of three ✅ on one preview only the approver's starts a run, once.
// alice is an approver as well as the requester, so that her own ✅ is refused for being hers,
// not for her not being an approver: each refusal exercises a rule of its own.
func TestE2EMattermostPolicyOnlyTheApproverRuns(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-only")
	policy := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"alice", "bob"}, Approvals: 1}}
	b := startMMBot(t, s, ch, eostest.Options{Policy: policy})

	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	botSays(t, s, req.Id, "Plan "+id+" · create grafana in local", "Needs 1 approval from @alice or @bob — not @alice (asked)")

	// An outsider: refused, told why, nothing runs.
	s.Carol.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "@carol can't approve local plans (approvers: @alice, @bob)", "Nothing changed")
	// The requester, though she is an approver.
	s.Alice.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "@alice can't approve local plans (the requester's own approval does not count here)", "Nothing changed")
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("carol's and alice's ✅ started %d runs", len(runs))
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanPending || len(p.Approvals) != 0 {
		t.Fatalf("plan after carol's and alice's ✅ = %+v, %v; want pending without approvals", p, err)
	}

	// The approver.
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	// bob's second approving emoji, then carol's, after the run: neither starts anything. The
	// adapter hands one conversation's events to the engine in order, so the answer to carol's
	// says bob's was handled too.
	s.Bob.React(t, preview.Id, "+1")
	s.Carol.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Plan "+id+" already ran (run "+id, "nothing started")
	b.Idle()

	runs, err := b.Store.Runs(context.Background(), nil)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %d (%v), want exactly one", len(runs), err)
	}
	if r := runs[0]; r.ID != id || r.State != store.RunDone || !slices.Equal(r.Approvers, []string{"bob"}) {
		t.Fatalf("run = %+v; want plan %s done, approved by bob", r, id)
	}
	p, err := b.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	want := store.Vote{User: "bob", UserID: s.Bob.User.Id, Platform: "mattermost"}
	if len(p.Approvals) != 1 || p.Approvals[0].User != want.User || p.Approvals[0].UserID != want.UserID || p.Approvals[0].Platform != want.Platform {
		t.Fatalf("plan approvals = %+v, want one by bob (%s on mattermost)", p.Approvals, s.Bob.User.Id)
	}

	kinds := auditOf(t, b, id)
	if n := len(kinds["run"]); n != 1 {
		t.Errorf("%d audit lines of kind run, want 1: %+v", n, kinds["run"])
	}
	if a := kinds["approval"]; len(a) != 1 || a[0].User != "bob" || a[0].Platform != "mattermost" {
		t.Errorf("audit approvals = %+v, want one by bob on mattermost", a)
	}
	// Refusals by the policy, and carol's late ✅ answered as "nothing started".
	var refused []string
	late := 0
	for _, e := range kinds["refusal"] {
		switch {
		case strings.Contains(e.Text, "can't approve"):
			refused = append(refused, e.User)
		case strings.Contains(e.Text, "nothing started"):
			late++
		}
	}
	slices.Sort(refused)
	if !slices.Equal(refused, []string{"alice", "carol"}) || late != 1 {
		t.Errorf("audit refusals by %v and %d after the run, want alice and carol once each, then one: %+v", refused, late, kinds["refusal"])
	}
}

// The requester holds a handle the policy names as an approver when Eos starts (so it is
// pinned to her account), renames herself through the server's API before asking, and back
// between her request and her ✅: she is still the requester (the same user ID), and
// self-approval is off, so her ✅ is refused. An engine comparing names would have taken the
// renamed requester for somebody else and run the plan.
func TestE2EMattermostRenamedRequesterCannotApprove(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-renamed-requester")
	n := mmtest.Nonce()
	asker, renamed := "req"+n, "ren"+n
	requester := s.NewPerson(t, renamed, ch)
	policy := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{renamed, "bob"}, Approvals: 1}}
	b := startMMBot(t, s, ch, eostest.Options{Policy: policy})
	b.WaitLog("policy handle pinned to its account\" platform=mattermost handle=" + renamed)
	s.Rename(t, requester, asker)

	req, preview, id := ask(t, s, ch, requester, "@eos create grafana")
	botSays(t, s, req.Id, "asked by @"+asker, "— not @"+asker+" (asked)")
	s.Rename(t, requester, renamed)
	requester.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "can't approve local plans (the requester's own approval does not count here)", "Nothing changed")
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("the renamed requester's ✅ started %d runs", len(runs))
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanPending || len(p.Approvals) != 0 {
		t.Fatalf("plan after the renamed requester's ✅ = %+v, %v; want pending without approvals", p, err)
	}
	if p, _ := b.Store.Plan(context.Background(), id); p != nil && p.Requester.ID != requester.User.Id {
		t.Errorf("plan's requester = %+v, want id %s", p.Requester, requester.User.Id)
	}

	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	b.Idle()
	runs, err := b.Store.Runs(context.Background(), nil)
	if err != nil || len(runs) != 1 || runs[0].ID != id || !slices.Equal(runs[0].Approvers, []string{"bob"}) {
		t.Fatalf("runs = %+v, %v; want one, of plan %s, approved by bob", runs, err, id)
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || len(p.Approvals) != 1 || p.Approvals[0].UserID != s.Bob.User.Id {
		t.Fatalf("plan approvals = %+v, %v; want bob's id %s alone", p, err, s.Bob.User.Id)
	}
}

// The policy names the handle apr…, and Eos pins it to the account that held it when Eos
// first looked it up (at start-up). A rename never grants rights: when the approver renames
// away, the handle names nobody (the old holder's ✅ is refused), and when someone else takes
// the freed handle through the server's API, their ✅ is refused too, saying why, because the
// handle is pinned to another account. The approver, back under the handle, approves, and the
// approval is recorded under the approver's own ID.
//
// Issue 17 had the handle resolved at the moment of each reaction, and so the rights followed
// the handle: the newcomer's ✅ ran the plan. On a server where people change their own
// usernames, that let anyone take an approver's freed handle and approve production plans.
func TestE2EMattermostATakenHandleGainsNothing(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-handle-taken")
	n := mmtest.Nonce()
	handle, away, other := "apr"+n, "gone"+n, "imp"+n
	approver := s.NewPerson(t, handle, ch)
	newcomer := s.NewPerson(t, other, ch)
	policy := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{handle}, Approvals: 1}}
	b := startMMBot(t, s, ch, eostest.Options{Policy: policy})
	b.WaitLog("policy handle pinned to its account")

	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	botSays(t, s, req.Id, "Needs 1 approval from @"+handle)

	// The approver renames away: the handle names nobody, and their ID alone gives no rights.
	s.Rename(t, approver, away)
	approver.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "can't approve local plans (approvers: @"+handle+")", "Nothing changed")

	// Someone else takes the freed handle: the server says it is theirs, but it is pinned to
	// the approver's account.
	s.Rename(t, newcomer, handle)
	newcomer.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "@"+handle+" can't approve local plans", `the policy's "`+handle+`" names the account that held it when Eos first looked it up, not this one`)
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("a ✅ of a renamed account started %d runs", len(runs))
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanPending || len(p.Approvals) != 0 {
		t.Fatalf("plan after the renamed accounts' ✅ = %+v, %v; want pending without approvals", p, err)
	}

	// The approver takes the handle back and approves.
	s.Rename(t, newcomer, other)
	s.Rename(t, approver, handle)
	approver.Unreact(t, preview.Id, "white_check_mark")
	approver.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	b.Idle()
	p, err := b.Store.Plan(context.Background(), id)
	if err != nil || len(p.Approvals) != 1 {
		t.Fatalf("plan = %+v, %v; want one approval", p, err)
	}
	if v := p.Approvals[0]; v.UserID != approver.User.Id || v.Platform != "mattermost" {
		t.Errorf("approval = %+v, want the approver's id %s", v, approver.User.Id)
	}
}

// A handle the policy names that nobody on the server holds when Eos starts is pinned vacant:
// someone who then takes the free name through the server's API is refused, saying why and
// what the operator does, and the plan stays pending.
func TestE2EMattermostAFreeHandleGainsNothing(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-handle-free")
	n := mmtest.Nonce()
	free, other := "new"+n, "imp"+n
	newcomer := s.NewPerson(t, other, ch)
	policy := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{free}, Approvals: 1}}
	b := startMMBot(t, s, ch, eostest.Options{Policy: policy})
	b.WaitLog("the policy names a handle no account holds")

	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	s.Rename(t, newcomer, free)
	newcomer.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "@"+free+" can't approve local plans", `no mattermost account held the policy's "`+free+`" when Eos first looked it up`,
		"eos policy handles --forget mattermost:"+free)
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("the ✅ of whoever took the free handle started %d runs", len(runs))
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanPending || len(p.Approvals) != 0 {
		t.Fatalf("plan after the ✅ = %+v, %v; want pending without approvals", p, err)
	}
}

// auditOf is plan id's audit log by kind.
func auditOf(t *testing.T, b *mmBot, id string) map[string][]store.Entry {
	t.Helper()
	entries, err := b.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id })
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]store.Entry{}
	for _, e := range entries {
		out[e.Kind] = append(out[e.Kind], e)
	}
	return out
}

// A policy raised while a plan waits governs it: a plan asked under approvals = 1, pending
// across a restart that raises it to 2, is not run by one approval, and runs once on the
// second. Before, the count a pending plan needed was stored with it, and bob's one ✅ ran it.
func TestE2EMattermostPolicyRaisedAcrossARestartGovernsAWaitingPlan(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-raised")
	dir := t.TempDir()
	one := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol"}, Approvals: 1}}
	first := startMMBot(t, s, ch, eostest.Options{DataDir: dir, Policy: one})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	botSays(t, s, req.Id, "Plan "+id, "Needs 1 approval from @bob or @carol")
	waitPreviewRecorded(t, first, id, preview)
	first.Stop()

	two := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol"}, Approvals: 2}}
	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir, Policy: two})
	s.Alice.Say(t, ch.Id, req.Id, "@eos why "+id)
	botSays(t, s, req.Id, "Rule: Needs 2 approvals from @bob or @carol", "No approval counts yet (0 of 2")
	s.Bob.React(t, preview.Id, "white_check_mark")
	s.Alice.Say(t, ch.Id, req.Id, "@eos why "+id) // answered after the reaction: one conversation, in order
	botSays(t, s, req.Id, "Approved by @bob", "(1 of 2)")
	second.Idle()
	if r, err := second.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("one approval ran a plan the current policy asks two for: %+v", r)
	}
	if p, _ := second.Store.Plan(context.Background(), id); p.State != store.PlanPending {
		t.Fatalf("plan after one of two approvals = %s, want pending", p.State)
	}
	s.Carol.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	second.Idle()
	runs, err := second.Store.Runs(context.Background(), nil)
	if err != nil || len(runs) != 1 || !slices.Equal(runs[0].Approvers, []string{"bob", "carol"}) {
		t.Fatalf("runs = %+v (%v), want one approved by bob and carol", runs, err)
	}
}
