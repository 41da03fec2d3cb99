package bot

import (
	"testing"

	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

func lossPlan(env, verb string) executor.Plan {
	return executor.Plan{Spec: executor.Spec{Verb: verb, Env: env},
		Layers: []executor.LayerPlan{{Changes: []executor.Change{{Action: executor.Delete, DataLoss: true}}}}}
}

// voter is an approval by user whose handle the platform confirms.
func voter(user string, self bool) Voter {
	return Voter{Vote: store.Vote{User: user, UserID: "u-" + user, Platform: "mattermost"},
		Person: Person{Platform: "mattermost", ID: "u-" + user, Name: user, Matches: []string{user}}, Self: self}
}

// A plan that loses data must satisfy its verb's rule and the data-loss rule, each with its
// own approvers: before, a data-loss rule naming other people replaced the verb's approvers,
// so destroying jenkins ran on one approval from mallory and bob, the only person the destroy
// rule names, was never asked.
func TestEveryRuleOnAPlanMustHoldOnItsOwn(t *testing.T) {
	p := Policy{Default: EnvPolicy{Approvals: 1}, Envs: map[string]EnvPolicy{"production": {
		Approvals: 1,
		Verbs:     map[string]VerbPolicy{"destroy": {Approvers: []string{"bob"}}},
		Risks:     map[string]RiskPolicy{RiskDataLoss: {Approvers: []string{"mallory"}, Approvals: 1}},
	}}}
	rules := p.Rules(lossPlan("production", "destroy"))
	if len(rules) != 2 || rules[0].Name != "destroy rule" || rules[1].Name != "data-loss rule" {
		t.Fatalf("rules = %+v", rules)
	}
	if v := Judge(rules, []Voter{voter("mallory", false)}); v.Satisfied() {
		t.Fatalf("mallory alone satisfies a destroy that the destroy rule gives to bob: %s", progress(v))
	}
	v := Judge(rules, []Voter{voter("mallory", false), voter("bob", false)})
	if !v.Satisfied() {
		t.Fatalf("bob and mallory together do not satisfy it: %s", progress(v))
	}
	if got, want := progress(Judge(rules, []Voter{voter("mallory", false)})),
		"destroy rule: 0 of 1 from @bob · data-loss rule: 1 of 1 from @mallory ✅"; got != want {
		t.Errorf("progress = %q\nwant       %q", got, want)
	}
	if got, want := render.RulesNeed(rules, "alice"), "Needs 1 approval from @bob (destroy rule) and 1 from @mallory (data-loss rule: this plan loses data) — not @alice (asked)"; got != want {
		t.Errorf("needs = %q\nwant    %q", got, want)
	}
	// One approval may count for several rules.
	both := Policy{Envs: map[string]EnvPolicy{"production": {Approvers: []string{"bob", "dave"}, Approvals: 1,
		Risks: map[string]RiskPolicy{RiskDataLoss: {Approvers: []string{"dave"}, Approvals: 1}}}}}
	if v := Judge(both.Rules(lossPlan("production", "update")), []Voter{voter("dave", false)}); !v.Satisfied() {
		t.Errorf("dave's one approval should count for both rules: %s", progress(v))
	}
	// A plan that loses nothing is judged by its verb's rule alone.
	if rules := p.Rules(executor.Plan{Spec: executor.Spec{Verb: "destroy", Env: "production"}}); len(rules) != 1 {
		t.Errorf("a plan without risk has rules %+v", rules)
	}
}

// The requester's own approval counts only if every rule allows it.
func TestSelfApprovalOnlyWhenEveryRuleAllowsIt(t *testing.T) {
	p := Policy{Envs: map[string]EnvPolicy{"local": {Approvals: 1, SelfApproval: true,
		Risks: map[string]RiskPolicy{RiskDataLoss: {Approvers: []string{"alice", "bob"}, Approvals: 1}}}}}
	rules := p.Rules(lossPlan("local", "destroy"))
	if ok, why := MayApprove(rules, voter("alice", true).Person, true); ok || why != "the requester's own approval does not count here: the data-loss rule takes none, so on this plan no rule does" {
		t.Errorf("alice approving her own data-loss plan: %v %q", ok, why)
	}
	if v := Judge(rules, []Voter{voter("alice", true)}); v.Satisfied() || len(v.Discounted) != 1 {
		t.Errorf("alice's own approval counted: %s", progress(v))
	}
	if v := Judge(p.Rules(executor.Plan{Spec: executor.Spec{Verb: "create", Env: "local"}}), []Voter{voter("alice", true)}); !v.Satisfied() {
		t.Errorf("self-approval in local, no risk: %s", progress(v))
	}
}

// A risk rule that names nobody asks its count of the verb rule's approvers; the two are one
// rule asking the larger count, worded as before.
func TestARiskRuleWithoutApproversRaisesTheCount(t *testing.T) {
	p := Policy{Default: EnvPolicy{Approvals: 1}, Envs: map[string]EnvPolicy{"production": {
		Approvers: []string{"bob", "dave", "erin"}, Approvals: 1, SelfApproval: true,
		Verbs: map[string]VerbPolicy{"destroy": {Approvals: 3, SelfApproval: true}},
		Risks: map[string]RiskPolicy{RiskDataLoss: {Approvals: 2}},
	}}}
	tests := []struct {
		name      string
		plan      executor.Plan
		approvals int
		self      bool
	}{
		{"update losing data", lossPlan("production", "update"), 2, false},
		{"destroy losing data keeps the verb's three", lossPlan("production", "destroy"), 3, false},
		{"update losing nothing", executor.Plan{Spec: executor.Spec{Verb: "update", Env: "production"}}, 1, true},
		{"data loss where no rule asks more", lossPlan("staging", "update"), 1, false},
	}
	for _, tt := range tests {
		rules := p.Rules(tt.plan)
		if len(rules) != 1 || rules[0].Approvals != tt.approvals || policy.SelfAllowed(rules) != tt.self {
			t.Errorf("%s: %+v", tt.name, rules)
		}
	}
	want := `Needs 2 approvals from @bob, @dave or @erin — not @alice (asked) · the "data-loss" rule of production, since this plan loses data`
	if got := render.RulesNeed(p.Rules(lossPlan("production", "update")), "alice"); got != want {
		t.Errorf("needs = %q\nwant    %q", got, want)
	}
	rows := render.PolicyRows(p, "production")
	if last := rows[len(rows)-1]; last[1] != "risk data-loss" || last[2] != "also, beside the verb's rule: 2 approvals from @bob, @dave, @erin · self-approval off" {
		t.Errorf("policy row = %q", last)
	}
}
