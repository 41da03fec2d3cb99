package policy

import (
	"slices"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// A plan is judged by a list of rules, each of which must hold on its own: the rule of its
// environment and verb (For), and the rule of every risk the plan carries. One approval may
// count for several rules. The list is always taken from the policy in force now, never from
// anything stored with the plan, so a policy changed while a plan waits governs it (see
// the engine's rejudge). A policy-as-code engine adds its rules to the same list.

// Rule is one approval rule a plan must satisfy by itself: Approvals distinct approvals from
// people its Approvers name (anyone when empty).
type Rule struct {
	// Name says which rule this is, for the reader: "destroy rule", "data-loss rule".
	Name         string
	Approvers    []string
	Approvals    int
	SelfApproval bool
	// Because says why the rule applies to this plan ("this plan loses data"); empty for the
	// rule of the environment and verb, which applies to every plan.
	Because string
	// Risk and Env name a risk rule's block: risk "data-loss" of policy "production".
	Risk, Env string
}

// Rules are the rules plan must satisfy under p: its environment's rule for its verb, and
// env's rule for each risk the plan carries. Rules naming the same approvers are one rule
// asking the larger count (they hold together exactly when it does), so the reader sees as
// many rules as there are groups of people to ask.
func (p Policy) Rules(plan executor.Plan) []Rule {
	spec := plan.Spec
	ep := p.For(spec.Env, spec.Verb)
	base := Rule{Name: baseRuleName(p, spec.Env, spec.Verb), Approvers: ep.Approvers, Approvals: ep.Approvals, SelfApproval: ep.SelfApproval}
	rules := []Rule{base}
	envRule, ok := p.Envs[spec.Env]
	if !ok {
		envRule = p.Default
	}
	for _, risk := range PlanRisks(plan) {
		rp, ok := envRule.Risks[risk]
		if !ok {
			continue
		}
		r := Rule{Name: risk + " rule", Approvers: rp.Approvers, Approvals: max(rp.Approvals, 1),
			SelfApproval: rp.SelfApproval && ep.SelfApproval, Because: riskWhy[risk], Risk: risk, Env: spec.Env}
		if len(r.Approvers) == 0 {
			r.Approvers = base.Approvers
		}
		if i := slices.IndexFunc(rules, func(o Rule) bool { return sameNames(o.Approvers, r.Approvers) }); i >= 0 {
			o := &rules[i]
			if r.Approvals > o.Approvals || r.SelfApproval != o.SelfApproval {
				o.Name, o.Because, o.Risk, o.Env = r.Name, r.Because, r.Risk, r.Env
			}
			o.Approvals = max(o.Approvals, r.Approvals)
			o.SelfApproval = o.SelfApproval && r.SelfApproval
			continue
		}
		rules = append(rules, r)
	}
	return rules
}

// baseRuleName names the rule of env and verb: "destroy rule" when env has a block for the
// verb, else "production rule".
func baseRuleName(p Policy, env, verb string) string {
	envRule, ok := p.Envs[env]
	if !ok {
		envRule = p.Default
	}
	if _, ok := envRule.Verbs[verb]; ok {
		return verb + " rule"
	}
	return env + " rule"
}

func sameNames(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// SelfAllowed reports whether the requester's own approval may count: only if every rule
// allows it.
func SelfAllowed(rules []Rule) bool {
	for _, r := range rules {
		if !r.SelfApproval {
			return false
		}
	}
	return true
}

// countsFor reports whether p, who asked for the plan when self, counts for rule r.
func (r Rule) countsFor(p Person, self bool, rules []Rule) bool {
	return Allowed(r.Approvers, p) && (!self || SelfAllowed(rules))
}

// Voter is a recorded approval with the person behind it as the platform says they are now.
type Voter struct {
	Vote   store.Vote
	Person Person
	Self   bool
}

// RuleProgress is how far one rule is: the approvals that count for it.
type RuleProgress struct {
	Rule    Rule
	Counted []store.Vote
}

// Done reports whether the rule holds.
func (rp RuleProgress) Done() bool { return len(rp.Counted) >= rp.Rule.Approvals }

// Refusal is why someone's approval counts for no rule: they are no approver of any, or they
// asked for the plan and the rules do not let the requester's own approval count.
type Refusal int

const (
	// NotApprover: no rule names them.
	NotApprover Refusal = iota + 1
	// OwnApproval: a rule names them, but they asked for the plan and self-approval is off.
	OwnApproval
)

// Discounted is a recorded approval that counts for no rule now, and why.
type Discounted struct {
	Vote store.Vote
	Why  Refusal
}

// Verdict is a plan's approvals judged by its rules.
type Verdict struct {
	Rules []RuleProgress
	// Discounted are approvals that count for no rule under the policy in force now.
	Discounted []Discounted
}

// Judge weighs voters against rules: each rule counts the approvals of the people it names.
func Judge(rules []Rule, voters []Voter) Verdict {
	v := Verdict{Rules: make([]RuleProgress, len(rules))}
	for i, r := range rules {
		v.Rules[i].Rule = r
	}
	for _, vt := range voters {
		counted := false
		for i, r := range rules {
			if r.countsFor(vt.Person, vt.Self, rules) {
				v.Rules[i].Counted = append(v.Rules[i].Counted, vt.Vote)
				counted = true
			}
		}
		if !counted {
			why := NotApprover
			if vt.Self && slices.ContainsFunc(rules, func(r Rule) bool { return Allowed(r.Approvers, vt.Person) }) {
				why = OwnApproval
			}
			v.Discounted = append(v.Discounted, Discounted{Vote: vt.Vote, Why: why})
		}
	}
	return v
}

// Satisfied reports whether every rule holds.
func (v Verdict) Satisfied() bool {
	for _, rp := range v.Rules {
		if !rp.Done() {
			return false
		}
	}
	return true
}

// Counting is how many recorded approvals count for at least one rule.
func (v Verdict) Counting(all []store.Vote) int { return len(all) - len(v.Discounted) }

// CountingVotes are the recorded approvals that count for at least one rule, in their order.
func (v Verdict) CountingVotes(all []store.Vote) []store.Vote {
	var out []store.Vote
	for _, vt := range all {
		if !slices.ContainsFunc(v.Discounted, func(d Discounted) bool { return d.Vote.Same(vt) }) {
			out = append(out, vt)
		}
	}
	return out
}

// Single reports whether one rule judges the plan, which the preview words as it always has.
func (v Verdict) Single() bool { return len(v.Rules) == 1 }

// Needed is how many more approvals the plan needs at least: the most any one rule lacks.
func (v Verdict) Needed() int {
	n := 0
	for _, rp := range v.Rules {
		n = max(n, rp.Rule.Approvals-len(rp.Counted))
	}
	return n
}

// MayApprove reports whether p's approval would count for at least one of rules; if not,
// why.
func MayApprove(rules []Rule, p Person, self bool) (bool, Refusal) {
	for _, r := range rules {
		if r.countsFor(p, self, rules) {
			return true, 0
		}
	}
	for _, r := range rules {
		if Allowed(r.Approvers, p) {
			return false, OwnApproval
		}
	}
	return false, NotApprover
}

// MayReject reports whether p may reject or cancel: the requester (self), or an approver of
// any of rules.
func MayReject(rules []Rule, p Person, self bool) bool {
	if self {
		return true
	}
	for _, r := range rules {
		if Allowed(r.Approvers, p) {
			return true
		}
	}
	return false
}

// ApproverLists are the approver lists of rules, for resolving a person against all of them.
func ApproverLists(rules []Rule) [][]string {
	out := make([][]string, len(rules))
	for i, r := range rules {
		out[i] = r.Approvers
	}
	return out
}
