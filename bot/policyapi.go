package bot

import (
	"strings"

	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render"
)

// The approval policy lives in bot/policy. The engine's configuration (Config.Policy) and its
// tests name it as bot's own: the aliases keep that public API as it was, so cmd/eos and the
// tests read the same, while the decisions have a package of their own. MayApprove is the one
// that adds words: the refusal, as the engine says it.

type (
	Policy       = policy.Policy
	EnvPolicy    = policy.EnvPolicy
	VerbPolicy   = policy.VerbPolicy
	RiskPolicy   = policy.RiskPolicy
	Person       = policy.Person
	Rule         = policy.Rule
	Voter        = policy.Voter
	RuleProgress = policy.RuleProgress
	Discounted   = policy.Discounted
	Verdict      = policy.Verdict
	// PolicyEntry is one entry of a policy's list taken apart, for the configuration's checks.
	PolicyEntry = policy.Entry
)

// RiskDataLoss is the risk of a plan that loses data (policy.RiskDataLoss).
const RiskDataLoss = policy.RiskDataLoss

// Risks are the risks a policy may name.
var Risks = policy.Risks

// DefaultPolicy is what Eos does with no configuration (policy.DefaultPolicy).
func DefaultPolicy() Policy { return policy.DefaultPolicy() }

// Judge weighs voters against rules (policy.Judge).
func Judge(rules []Rule, voters []Voter) Verdict { return policy.Judge(rules, voters) }

// MayReject reports whether p may reject or cancel (policy.MayReject).
func MayReject(rules []Rule, p Person, self bool) bool { return policy.MayReject(rules, p, self) }

// MayApprove reports whether p's approval would count for at least one of rules; if not,
// why, in the words of the refusal.
func MayApprove(rules []Rule, p Person, self bool) (bool, string) {
	ok, why := policy.MayApprove(rules, p, self)
	switch {
	case ok:
		return true, ""
	case why == policy.OwnApproval:
		return false, "the requester's own approval does not count here" + strictRules(rules)
	default:
		return false, "approvers: " + render.RulesWho(rules)
	}
}

// strictRules names, when some of rules would take the requester's own approval, the ones that
// do not: they keep it from every rule of the plan, and a requester who configured
// self_approval for the environment must learn which rule took it away (": the
// eos.change_window.require rule takes none, so on this plan no rule does"); "" when no rule
// takes it, as the environment's own rule says then.
func strictRules(rules []Rule) string {
	var strict []string
	for _, r := range rules {
		if !r.SelfApproval {
			name := r.Name // "data-loss rule", or a policy's "eos.change_window.require"
			if strings.HasSuffix(name, " rule") {
				name = "the " + name
			}
			strict = append(strict, name)
		}
	}
	if len(strict) == len(rules) {
		return ""
	}
	verb := "takes"
	if len(strict) > 1 {
		verb = "take"
	}
	return ": " + strings.Join(strict, " and ") + " " + verb + " none, so on this plan no rule does"
}

// ParsePolicyEntry takes s apart as the policy reads it.
func ParsePolicyEntry(s string) PolicyEntry { return policy.ParseEntry(s) }

// Platforms are the platforms a policy entry may name.
func Platforms() []string { return policy.Platforms() }
