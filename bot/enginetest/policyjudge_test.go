package enginetest_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// policyAudit are the audit lines the policy set wrote about plan id.
func policyAudit(t *testing.T, h *eostest.Harness, id string) []string {
	t.Helper()
	entries, err := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "policy" })
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Text)
	}
	return out
}

// A plan the policy denies shows ⛔ with the author's message and the rule (package, rule,
// file:line) instead of the reaction prompt, and no approval runs it; the audit line names
// the policy set's SHA-256, and `why` lists the decision.
func TestAPlanThePolicyDeniesCannotBeApproved(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	after := h.Last()
	h.Say("alice", "@eos create grafana")
	p := h.WaitText(after, "Plan ", "⛔ The policy denies this plan: grafana is retired here: use the metrics stack (eos.retired.deny, retired.rego:3)",
		"No approval possible: nothing will run.")
	if strings.Contains(p.Text, "React ✅") {
		t.Errorf("a denied plan's preview offers the reaction prompt:\n%s", p.Text)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
	recorded(t, h, id)
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Plan "+id+" cannot be approved: the policy denies it.", "⛔ grafana is retired here")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a denied plan ran: %+v", r)
	}
	if pl, _ := h.Store.Plan(context.Background(), id); pl.State != store.PlanPending || len(pl.Approvals) != 0 {
		t.Errorf("plan = %s with %d approvals, want pending with none counted", pl.State, len(pl.Approvals))
	}
	if got := policyAudit(t, h, id); len(got) != 1 || !strings.Contains(got[0], "deny: grafana is retired here") || !strings.Contains(got[0], "sha256:"+set.SHA256()) {
		t.Errorf("policy audit lines = %q, want the deny with the set's SHA-256", got)
	}
	after = h.Last()
	h.Say("alice", "@eos why "+id)
	h.WaitText(after, "Policy set sha256:"+set.SHA256()[:12]+" decided:", "· deny: grafana is retired here: use the metrics stack (eos.retired.deny, retired.rego:3)",
		"It cannot be approved: the policy denies it.")
}

// A require holds the plan until someone it names approves: bob's approval satisfies the
// approval policy but not the rule, carol (not in group:sre) is refused, dave (in sre)
// releases it and the plan runs once; the approval's audit line names the rule.
func TestARequireHoldsThePlanUntilANamedPersonApproves(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "sre.rego", `package eos.sre

require contains {"msg": "grafana changes need someone from SRE", "approvers": ["group:sre"], "approvals": 1} if {
	input.request.target == "grafana"
}
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set, ConsoleGroups: map[string][]string{"sre": {"dave"}}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	if !strings.Contains(p.Text, "1 from group:sre (eos.sre.require: grafana changes need someone from SRE)") {
		t.Fatalf("the preview does not name the require rule:\n%s", p.Text)
	}
	recorded(t, h, id)
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "eos.sre.require: 0 of 1 from group:sre")
	h.React("carol", p.ID, "+1")
	h.WaitText(p.ID, "@carol can't approve local plans")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("the plan ran without anyone from group:sre: %+v", r)
	}
	h.React("dave", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err != nil || !slices.Equal(r.Approvers, []string{"bob", "dave"}) {
		t.Fatalf("run = %+v, %v; want one run approved by bob and dave", r, err)
	}
	runs, _ := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "run" })
	if len(runs) != 1 {
		t.Errorf("%d run audit lines, want the plan to run once", len(runs))
	}
	approvals, _ := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "approval" && e.User == "dave" })
	if len(approvals) != 1 || !strings.Contains(approvals[0].Text, "eos.sre.require: 1 of 1 from @dave ✅") {
		t.Errorf("dave's approval audit = %+v, want it to name the rule it released", approvals)
	}
	if got := policyAudit(t, h, id); len(got) != 1 || !strings.Contains(got[0], "require: grafana changes need someone from SRE (eos.sre.require, sre.rego:3) · needs 1 from group:sre") {
		t.Errorf("policy audit lines = %q", got)
	}
}

// A require never takes the requester's own approval, so on its plan no rule does, even where
// the environment allows self-approval: the requester who reacts is told which rule took it
// away, not only that it does not count (they configured self_approval and would not see why).
func TestARequireTellsTheRequesterWhyTheirApprovalDoesNotCount(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "sre.rego", `package eos.sre

require contains {"msg": "grafana changes need someone from SRE", "approvers": ["alice", "group:sre"], "approvals": 1} if {
	input.request.target == "grafana"
}
`)
	self := bot.EnvPolicy{Approvals: 1, SelfApproval: true, TTL: 30 * time.Minute}
	h := eostest.New(t, eostest.Options{Policy: bot.Policy{Default: self, Envs: map[string]bot.EnvPolicy{"local": self}},
		PolicyCode: set, ConsoleGroups: map[string][]string{"sre": {"dave"}}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("alice", p.ID, "+1")
	h.WaitText(p.ID, "@alice can't approve local plans (the requester's own approval does not count here: eos.sre.require takes none, so on this plan no rule does). Nothing changed.")
	h.React("dave", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err != nil || !slices.Equal(r.Approvers, []string{"dave"}) {
		t.Fatalf("run = %+v, %v; want one run approved by dave alone", r, err)
	}
}

// A warning is shown in the preview and changes nothing: the approval policy's one approval
// runs the plan.
func TestAPolicyWarningIsShownAndChangesNothing(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "note.rego", `package eos.note

warn contains "grafana keeps its dashboards in the database: back it up first" if input.request.target == "grafana"
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	for _, want := range []string{"⚠️ Policy warning: grafana keeps its dashboards in the database: back it up first (eos.note.warn, note.rego:3)",
		"Needs 1 approval from @bob — not @alice (asked)", "React ✅ to approve"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, p.Text)
		}
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
}

// A policy reloaded while a plan waits judges it at once: the waiting preview now shows ⛔ and
// no reaction prompt.
func TestAReloadedPolicyDeniesAWaitingPlan(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy()})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	recorded(t, h, id)
	h.Engine.SetPolicyCode(eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy))
	h.Engine.SetPolicy(context.Background(), h.Engine.Policy())
	if got := postText(t, h, p.ID); !strings.Contains(got, "⛔ The policy denies this plan") || strings.Contains(got, "React ✅") {
		t.Fatalf("the waiting preview after the reload:\n%s", got)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Plan "+id+" cannot be approved: the policy denies it.")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a plan the reloaded policy denies ran: %+v", r)
	}
	// A reload that drops the set shows the preview again with its reaction prompt.
	h.Engine.SetPolicyCode(nil)
	h.Engine.SetPolicy(context.Background(), h.Engine.Policy())
	if got := postText(t, h, p.ID); strings.Contains(got, "⛔") || !strings.Contains(got, "React ✅") {
		t.Fatalf("the waiting preview after the set was dropped:\n%s", got)
	}
}

// A policy reloaded between the approval and the apply that now denies the plan halts it at
// the re-plan before applying: nothing is applied (Salt's apply is never reached), so there is
// nothing to roll back, and the thread and the audit log say why.
func TestAReloadThatDeniesAnApprovedPlanHaltsItBeforeApplying(t *testing.T) {
	t.Parallel()
	applying := newGate()
	salt := &replanGate{slowSalt: slowSalt{apply: map[string]*gate{"grafana": applying}}, replan: newGate(), plans: map[string]int{}}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{salt}, Policy: bobApprovesPolicy()})
	t.Cleanup(applying.open)
	t.Cleanup(salt.replan.open)
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	salt.replan.arrived(t, "the re-plan before applying")

	set := eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy)
	h.Engine.SetPolicyCode(set)
	h.Engine.SetPolicy(context.Background(), h.Engine.Policy())
	salt.replan.open()
	h.WaitText(p.ID, "Plan "+id+" was approved, but the policy in force now denies it, so it did not run:",
		"⛔ grafana is retired here: use the metrics stack (eos.retired.deny, retired.rego:3)", "Nothing was applied, so nothing was rolled back.")
	waitPreview(t, h, p, "cancelled: the policy in force denies it (eos.retired.deny) · nothing changed")
	h.Idle()
	select {
	case <-applying.entered:
		t.Fatal("Salt applied a plan the policy in force denies")
	default:
	}
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a run was recorded for a plan halted before applying: %+v", r)
	}
	halted, _ := h.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "cancel" })
	if len(halted) != 1 || !strings.Contains(halted[0].Text, "sha256:"+set.SHA256()) {
		t.Errorf("halt audit = %+v, want one line naming the set's SHA-256", halted)
	}
}

// A rule that errs while judging denies the plan, naming the error (fail closed): OPA would
// otherwise leave the rule undefined and let the plan through.
func TestAPolicyThatErrsDeniesThePlan(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "broken.rego", `package eos.broken

deny contains msg if {
	n := to_number(input.request.target)
	msg := sprintf("%d", [n])
}
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	after := h.Last()
	h.Say("alice", "@eos create grafana")
	p := h.WaitText(after, "⛔ The policy denies this plan: the policy could not judge this plan, so it cannot be approved:", "to_number",
		"No approval possible")
	h.React("bob", p.ID, "+1")
	id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
	h.WaitText(p.ID, "Plan "+id+" cannot be approved: the policy denies it.")
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a plan the policy could not judge ran: %+v", r)
	}
}

// Destroys are judged like every plan: a rule that denies destroying grafana lets it be
// created and refuses its destroy.
func TestAPolicyJudgesDestroys(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "keep.rego", `package eos.keep

deny contains "grafana stays: it holds the on-call dashboards" if {
	input.request.verb == "destroy"
	input.request.target == "grafana"
}
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	after := h.Last()
	h.Say("alice", "@eos destroy grafana")
	d := h.WaitText(after, "Plan ", "destroy grafana", "⛔ The policy denies this plan: grafana stays: it holds the on-call dashboards (eos.keep.deny, keep.rego:3)")
	if strings.Contains(d.Text, "React ✅") {
		t.Errorf("the denied destroy offers the reaction prompt:\n%s", d.Text)
	}
}

// After a restart the policy in force then judges a plan approved before it: a set that denies
// it halts it before its run starts.
func TestAfterARestartThePolicyInForceJudgesAnApprovedPlan(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir, Policy: bobApprovesPolicy()})
	_, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	recorded(t, h, id)
	h.Stop()
	approveOffline(t, dir, id, store.Vote{User: "bob", UserID: "bob", Platform: "console"})

	h2 := eostest.New(t, eostest.Options{DataDir: dir, Policy: bobApprovesPolicy(), PolicyCode: eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy)})
	h2.WaitText(0, "Plan "+id+" was approved, but the policy in force now denies it, so it did not run:", "eos.retired.deny, retired.rego:3")
	h2.Idle()
	if r, err := h2.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a plan the policy in force denies ran after the restart: %+v", r)
	}
	if pl, _ := h2.Store.Plan(context.Background(), id); pl.State != store.PlanCancelled {
		t.Errorf("plan = %s, want cancelled", pl.State)
	}
	// A plan that ended is not judged again: `why` shows what the audit log recorded.
	h2.Stop()
	h3 := eostest.New(t, eostest.Options{DataDir: dir, Policy: bobApprovesPolicy()})
	after := h3.Last()
	h3.Say("alice", "@eos why "+id)
	h3.WaitText(after, "The policy decided, when it judged this plan:", "deny: grafana is retired here: use the metrics stack (eos.retired.deny, retired.rego:3) · policy set sha256:")
}

// The README's example of an input document is the one Eos builds for a real plan: an update
// of grafana on the simulated cloud, asked by alice, who is in group:sre (a group the rules
// name), with its declared values before the change. Plan ID and hash vary from run to run and
// are shown fixed.
func TestThePolicyInputDocumentOfARealPlan(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 26, 14, 5, 0, 0, time.UTC))
	set := eostest.PolicySet(t, "sre.rego", `package eos.sre

warn contains "asked by SRE" if "group:sre" in input.request.requester.groups
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set, Clock: clock, ConsoleGroups: map[string][]string{"sre": {"alice"}}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	up, uid := eostest.Preview(t, h, "alice", "@eos update grafana --domain grafana.example.org")
	if !strings.Contains(up.Text, "⚠️ Policy warning: asked by SRE") {
		t.Errorf("the rule did not see alice's group:\n%s", up.Text)
	}
	in, err := h.Engine.PolicyInputOf(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	plan := in["plan"].(map[string]any)
	plan["id"], plan["hash"] = "7f3a9c21", "3b1f…"
	raw, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	goldenText(t, "policy_input", string(raw))
}

// Drift's reconcile and adopt plans are judged like every plan: a volume grown by hand, and
// a rule that denies taking drift in without a change ticket.
func TestAPolicyJudgesReconcileAndAdoptPlans(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "drift.rego", `package eos.drift

deny contains sprintf("%s of drift needs a change ticket first", [input.request.verb]) if input.request.verb in {"reconcile", "adopt"}
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	eostest.Deploy(t, h, "nextcloud --storage 200G")
	eostest.GrowVolume(t, h, "data-nextcloud-local", 300)
	for _, verb := range []string{"adopt", "reconcile"} {
		after := h.Last()
		h.Say("alice", "@eos "+verb+" nextcloud")
		p := h.WaitText(after, "Plan ", verb+" nextcloud in local", "⛔ The policy denies this plan: "+verb+" of drift needs a change ticket first (eos.drift.deny, drift.rego:3)")
		if strings.Contains(p.Text, "React ✅") {
			t.Errorf("the denied %s offers the reaction prompt:\n%s", verb, p.Text)
		}
	}
}
