package bot

import "testing"

func TestPolicyPerEnvironmentAndVerb(t *testing.T) {
	p := Policy{
		Default: EnvPolicy{Approvals: 1, SelfApproval: true},
		Envs: map[string]EnvPolicy{"production": {Approvers: []string{"bob", "dave"}, Approvals: 1,
			Verbs: map[string]VerbPolicy{"destroy": {Approvals: 2, Approvers: []string{"dave", "erin"}}}}},
	}
	for _, tc := range []struct {
		env, verb, user, requester string
		ok                         bool
		approvals                  int
	}{
		{"staging", "create", "alice", "alice", true, 1},      // default: anyone, self allowed
		{"production", "create", "carol", "alice", false, 1},  // not an approver
		{"production", "create", "bob", "alice", true, 1},     // approver
		{"production", "create", "bob", "bob", false, 1},      // self-approval off
		{"production", "destroy", "bob", "alice", false, 2},   // destroy: other approvers
		{"production", "destroy", "erin", "alice", true, 2},   // destroy approver, two needed
		{"production", "reconcile", "dave", "alice", true, 1}, // no verb block: the env's policy
	} {
		ep := p.For(tc.env, tc.verb)
		ok, why := ep.MayApprove(Person{Name: tc.user}, tc.requester)
		if ok != tc.ok || ep.Approvals != tc.approvals {
			t.Errorf("%s %s by %s (asked by %s): ok=%v (%s), approvals=%d; want ok=%v, approvals=%d",
				tc.verb, tc.env, tc.user, tc.requester, ok, why, ep.Approvals, tc.ok, tc.approvals)
		}
	}
	if got := p.For("production", "destroy").Needs("alice"); got != "Needs 2 approvals from @dave, @erin, not from @alice" {
		t.Errorf("Needs = %q", got)
	}
}

func TestPolicyGroups(t *testing.T) {
	ep := Policy{Default: EnvPolicy{Approvers: []string{"dave", "group:sre"}, Requesters: []string{"group:dev"}}}.For("production", "create")
	for _, tc := range []struct {
		who           Person
		approve, asks bool
	}{
		{Person{Name: "dave"}, true, false},                                    // named
		{Person{Name: "erin", Groups: []string{"sre"}}, true, false},           // in a listed group
		{Person{Name: "erin", Groups: []string{"dev"}}, false, true},           // a requester group only
		{Person{Name: "frank", Groups: []string{"sre-interns"}}, false, false}, // a group not listed
		{Person{Name: "sre"}, false, false},                                    // a person named like the group
	} {
		ok, _ := ep.MayApprove(tc.who, "alice")
		if ok != tc.approve || ep.MayRequest(tc.who) != tc.asks {
			t.Errorf("%+v: approve=%v request=%v; want %v %v", tc.who, ok, ep.MayRequest(tc.who), tc.approve, tc.asks)
		}
	}
	if got := ep.Needs("alice"); got != "Needs 1 approval from @dave, anyone in group sre, not from @alice" {
		t.Errorf("Needs = %q", got)
	}
}
