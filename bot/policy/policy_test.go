package policy

import (
	"slices"
	"testing"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

func TestParseEntry(t *testing.T) {
	for in, want := range map[string]entry{
		"bob":                  {name: "bob"},
		"@bob":                 {name: "bob"},
		"mattermost:bob":       {platform: "mattermost", name: "bob"},
		"group:sre":            {group: true, name: "sre"},
		"discord:group:sre":    {platform: "discord", group: true, name: "sre"},
		"unknownplatform:bob":  {name: "unknownplatform:bob"},
		"slack:@bob":           {platform: "slack", name: "bob"},
		"console:group:admins": {platform: "console", group: true, name: "admins"},
	} {
		if got := parseEntry(in); got != want {
			t.Errorf("parseEntry(%q) = %+v, want %+v", in, got, want)
		}
	}
}

// An approval that counts for no rule says why as data: the engine words it. alice asked for
// the plan and is an approver whose own approval the rules do not let count; carol is no
// approver at all.
func TestJudgeSaysWhyAnApprovalCountsForNoRule(t *testing.T) {
	rules := Policy{Default: EnvPolicy{Approvers: []string{"alice", "bob"}}}.Rules(executor.Plan{Spec: executor.Spec{Env: "production", Verb: "create"}})
	person := func(name string) Person {
		return Person{Platform: "mattermost", ID: "u-" + name, Name: name, Matches: []string{name}}
	}
	v := Judge(rules, []Voter{
		{Vote: store.Vote{User: "alice"}, Person: person("alice"), Self: true},
		{Vote: store.Vote{User: "carol"}, Person: person("carol")},
		{Vote: store.Vote{User: "bob"}, Person: person("bob")},
	})
	want := []Discounted{{Vote: store.Vote{User: "alice"}, Why: OwnApproval}, {Vote: store.Vote{User: "carol"}, Why: NotApprover}}
	if !slices.EqualFunc(v.Discounted, want, func(a, b Discounted) bool { return a.Vote.Same(b.Vote) && a.Why == b.Why }) || !v.Satisfied() || v.Needed() > 0 {
		t.Errorf("verdict = %+v, want discounted %+v and satisfied by bob", v, want)
	}
	for _, tc := range []struct {
		who  string
		self bool
		ok   bool
		why  Refusal
	}{{"alice", true, false, OwnApproval}, {"carol", false, false, NotApprover}, {"bob", false, true, 0}} {
		if ok, why := MayApprove(rules, person(tc.who), tc.self); ok != tc.ok || why != tc.why {
			t.Errorf("MayApprove(%s, self %v) = %v, %v; want %v, %v", tc.who, tc.self, ok, why, tc.ok, tc.why)
		}
	}
	if !MayReject(rules, person("carol"), true) || MayReject(rules, person("carol"), false) {
		t.Errorf("carol may reject only as the requester")
	}
}
