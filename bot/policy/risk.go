package policy

import (
	"github.com/eosbot/eos/executor"
)

// RiskDataLoss is the risk of a plan that destroys or replaces a resource its blueprint marks
// as holding data (holds_data): risk "data-loss" { approvals = 2 } in a policy block.
const RiskDataLoss = "data-loss"

// Risks are the risks a policy may name.
var Risks = []string{RiskDataLoss}

// RiskPolicy asks more of a plan that carries a risk, whatever its verb. It is a rule of its
// own that must hold beside the verb's rule (Policy.Rules): Approvals approvals from its
// Approvers (the verb rule's approvers when it lists none), and the requester's own approval
// counts only if every rule allows it. It can only add to what a plan needs, never replace it.
type RiskPolicy struct {
	Approvers    []string
	Approvals    int
	SelfApproval bool
}

// PlanRisks lists the risks plan carries.
func PlanRisks(plan executor.Plan) []string {
	var out []string
	if plan.LosesData() {
		out = append(out, RiskDataLoss)
	}
	return out
}

// riskWhy says why a plan carries a risk, for the reader of its rule.
var riskWhy = map[string]string{RiskDataLoss: "this plan loses data"}
