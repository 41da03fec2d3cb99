package bot

import (
	"testing"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// rulesFor are the rules of a plan of verb in env under p that carries no risk.
func rulesFor(p Policy, env, verb string) []Rule {
	return p.Rules(executor.Plan{Spec: executor.Spec{Env: env, Verb: verb}})
}

func TestPolicyPerEnvironmentAndVerb(t *testing.T) {
	p := Policy{
		Default: EnvPolicy{Approvals: 1, SelfApproval: true},
		Envs: map[string]EnvPolicy{"production": {Approvers: []string{"bob", "dave"}, Approvals: 1,
			Verbs: map[string]VerbPolicy{"destroy": {Approvals: 2, Approvers: []string{"dave", "erin"}}}}},
	}
	for _, tc := range []struct {
		env, verb, user string
		self            bool
		ok              bool
		approvals       int
	}{
		{"staging", "create", "alice", true, true, 1},      // default: anyone, self allowed
		{"production", "create", "carol", false, false, 1}, // not an approver
		{"production", "create", "bob", false, true, 1},    // approver
		{"production", "create", "bob", true, false, 1},    // self-approval off
		{"production", "destroy", "bob", false, false, 2},  // destroy: other approvers
		{"production", "destroy", "erin", false, true, 2},  // destroy approver, two needed
		{"production", "reconcile", "dave", false, true, 1},
	} {
		ep := p.For(tc.env, tc.verb)
		ok, why := MayApprove(rulesFor(p, tc.env, tc.verb), Person{Name: tc.user, Matches: []string{tc.user}}, tc.self)
		if ok != tc.ok || ep.Approvals != tc.approvals {
			t.Errorf("%s %s by %s (self %v): ok=%v (%s), approvals=%d; want ok=%v, approvals=%d",
				tc.verb, tc.env, tc.user, tc.self, ok, why, ep.Approvals, tc.ok, tc.approvals)
		}
	}
	if got := render.RulesNeed(rulesFor(p, "production", "destroy"), "alice"); got != "Needs 2 approvals from @dave or @erin — not @alice (asked)" {
		t.Errorf("Needs = %q", got)
	}
}

// The policy admits a person only through the entries the engine resolved for them: a name
// alone (Person.Name) admits nobody.
func TestPolicyMatchesResolvedEntriesOnly(t *testing.T) {
	pol := Policy{Default: EnvPolicy{Approvers: []string{"dave", "group:sre", "mattermost:erin"}, Requesters: []string{"group:dev"}}}
	ep := pol.For("production", "create")
	for _, tc := range []struct {
		who           Person
		approve, asks bool
	}{
		{Person{Name: "dave", Matches: []string{"dave"}}, true, false},
		{Person{Name: "dave"}, false, false}, // called dave, but the platform did not say the handle is theirs
		{Person{Name: "erin", Matches: []string{"group:sre"}}, true, false},
		{Person{Name: "erin", Matches: []string{"group:dev"}}, false, true},
		{Person{Name: "erin", Matches: []string{"mattermost:erin"}}, true, false},
		{Person{Name: "sre"}, false, false},
	} {
		ok, _ := MayApprove(rulesFor(pol, "production", "create"), tc.who, false)
		if ok != tc.approve || ep.MayRequest(tc.who) != tc.asks {
			t.Errorf("%+v: approve=%v request=%v; want %v %v", tc.who, ok, ep.MayRequest(tc.who), tc.approve, tc.asks)
		}
	}
}
