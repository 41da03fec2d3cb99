package bot

import (
	"fmt"
	"slices"

	"github.com/eosbot/eos/executor"
)

// RiskDataLoss is the risk of a plan that destroys or replaces a resource its blueprint marks
// as holding data (holds_data): risk "data-loss" { approvals = 2 } in a policy block.
const RiskDataLoss = "data-loss"

// Risks are the risks a policy may name.
var Risks = []string{RiskDataLoss}

// RiskPolicy asks more of a plan that carries a risk, whatever its verb. It only makes the
// rule stricter: its approvers replace the rule's when listed, its approvals count when more,
// and the requester's own approval counts only if both allow it.
type RiskPolicy struct {
	Approvers    []string
	Approvals    int
	SelfApproval bool
}

// planRisks lists the risks plan carries.
func planRisks(plan executor.Plan) []string {
	var out []string
	if plan.LosesData() {
		out = append(out, RiskDataLoss)
	}
	return out
}

// riskWhy says why a plan carries a risk, for the reader of its rule.
var riskWhy = map[string]string{RiskDataLoss: "this plan loses data"}

// ForPlan is the rule plan is judged by: its verb's rule in its environment (For), made
// stricter by the rule of each risk it carries; Because then says which and why.
func (p Policy) ForPlan(plan executor.Plan) EnvPolicy {
	spec := plan.Spec
	ep := p.For(spec.Env, spec.Verb)
	for _, risk := range planRisks(plan) {
		ep = p.withRisk(ep, spec.Env, risk)
	}
	return ep
}

// withRisk makes ep stricter by env's rule for risk, if it has one.
func (p Policy) withRisk(ep EnvPolicy, env, risk string) EnvPolicy {
	base, ok := p.Envs[env]
	if !ok {
		base = p.Default
	}
	rp, ok := base.Risks[risk]
	if !ok {
		return ep
	}
	if len(rp.Approvers) > 0 {
		ep.Approvers = slices.Clone(rp.Approvers)
	}
	ep.Approvals = max(ep.Approvals, rp.Approvals)
	ep.SelfApproval = ep.SelfApproval && rp.SelfApproval
	ep.Because = fmt.Sprintf("the %q rule of %s, since %s", risk, env, riskWhy[risk])
	return ep
}
