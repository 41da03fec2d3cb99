package bot

import (
	"testing"

	"github.com/eosbot/eos/executor"
)

func lossPlan(env, verb string) executor.Plan {
	return executor.Plan{Spec: executor.Spec{Verb: verb, Env: env},
		Layers: []executor.LayerPlan{{Changes: []executor.Change{{Action: executor.Delete, DataLoss: true}}}}}
}

// A plan that loses data is judged by the stricter of its verb's rule and the data-loss rule;
// a plan that loses none by its verb's rule alone.
func TestForPlanTakesTheStricterRule(t *testing.T) {
	p := Policy{Default: EnvPolicy{Approvals: 1}, Envs: map[string]EnvPolicy{"production": {
		Approvers: []string{"bob", "dave", "erin"}, Approvals: 1, SelfApproval: true,
		Verbs: map[string]VerbPolicy{"destroy": {Approvals: 3, SelfApproval: true}},
		Risks: map[string]RiskPolicy{RiskDataLoss: {Approvers: []string{"dave", "erin"}, Approvals: 2}},
	}}}
	tests := []struct {
		name        string
		plan        executor.Plan
		approvals   int
		approvers   int
		self        bool
		riskApplies bool
	}{
		{"update losing data", lossPlan("production", "update"), 2, 2, false, true},
		{"destroy losing data keeps the verb's three", lossPlan("production", "destroy"), 3, 2, false, true},
		{"update losing nothing", executor.Plan{Spec: executor.Spec{Verb: "update", Env: "production"}}, 1, 3, true, false},
		{"data loss where no rule asks more", lossPlan("staging", "update"), 1, 0, false, false},
	}
	for _, tt := range tests {
		ep := p.ForPlan(tt.plan)
		if ep.Approvals != tt.approvals || len(ep.Approvers) != tt.approvers || ep.SelfApproval != tt.self || (ep.Because != "") != tt.riskApplies {
			t.Errorf("%s: %+v", tt.name, ep)
		}
	}
	want := `Needs 2 approvals from @dave or @erin — not @alice (asked) — the "data-loss" rule of production, since this plan loses data`
	if got := p.ForPlan(lossPlan("production", "update")).Needs("alice"); got != want {
		t.Errorf("needs = %q\nwant    %q", got, want)
	}
	rows := p.Rows("production")
	if last := rows[len(rows)-1]; last[1] != "risk data-loss" || last[2] != "requesters: anyone · approvers: @dave, @erin · 2 approvals · self-approval off · plans expire after 30m" {
		t.Errorf("policy row = %q", last)
	}
}
