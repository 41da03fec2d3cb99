package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
)

// PolicyAnswer answers `policy [ENV]` and `help policy`: the rule that governs each of envs,
// exactly as the engine applies it, closed by leftOut (what happens elsewhere).
func PolicyAnswer(p policy.Policy, envs []string, leftOut string) adapters.Doc {
	var rows [][]string
	for _, env := range envs {
		rows = append(rows, PolicyRows(p, env)...)
	}
	note := "People are judged by their platform account, not their name: a handle in the policy names the account that held it when Eos first looked it up, while that account holds it: whoever takes the handle later gains nothing." + riskNote(rows)
	note += " " + leftOut
	return adapters.NewDoc(adapters.Heading{Text: "Approval policy"},
		adapters.Table{Header: []string{"env", "verb", "rule"}, Rows: rows}, adapters.Context{Text: note})
}

// VacantHandles warns, after the policy, that handles it names are pinned vacant on platform:
// no account held them when Eos first looked them up, so they name nobody there.
func VacantHandles(platform string, handles []string) string {
	return fmt.Sprintf("⚠ %s name%s nobody on %s: no account held %s when Eos first looked, so whoever takes %s now gains nothing. Once the person meant holds it, an operator confirms it: eos policy handles --forget %s:%s.",
		Mentions(handles), singular(len(handles), "s", ""), platform, itThem(len(handles)), itThem(len(handles)), platform, handles[0])
}

func singular(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func itThem(n int) string { return singular(n, "it", "them") }

// DescribeEnv says in one line what ep asks: who may ask, who may approve, how many approvals,
// self-approval and how long a plan waits.
func DescribeEnv(ep policy.EnvPolicy) string {
	self := "off"
	if ep.SelfApproval {
		self = "on"
	}
	return fmt.Sprintf("requesters: %s · approvers: %s · %d approval%s · self-approval %s · plans expire after %s",
		Mentions(ep.Requesters), Mentions(ep.Approvers), ep.Approvals, Plural(ep.Approvals), self, ShortDuration(ep.TTL))
}

// describeRisk says in one line what a risk rule asks besides the verb's rule (ep): "also 2
// approvals from @dave, @erin · self-approval off".
func describeRisk(rp policy.RiskPolicy, ep policy.EnvPolicy) string {
	approvers := rp.Approvers
	if len(approvers) == 0 {
		approvers = ep.Approvers
	}
	self := "off"
	if rp.SelfApproval && ep.SelfApproval {
		self = "on"
	}
	n := max(rp.Approvals, 1)
	return fmt.Sprintf("also, beside the verb's rule: %d approval%s from %s · self-approval %s", n, Plural(n), Mentions(approvers), self)
}

// ShortDuration writes a configured duration as it is usually typed: 30m, 1h30m, 45s.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// PolicyRows lists the effective policy of env: one row for the environment and one for each verb
// that has its own rule.
func PolicyRows(p policy.Policy, env string) [][]string {
	ep := p.For(env, "")
	rows := [][]string{{env, "every verb", DescribeEnv(ep)}}
	base, ok := p.Envs[env]
	if !ok {
		base = p.Default
	}
	for _, verb := range slices.Sorted(maps.Keys(base.Verbs)) {
		rows = append(rows, []string{env, verb, DescribeEnv(p.For(env, verb))})
	}
	for _, risk := range slices.Sorted(maps.Keys(base.Risks)) {
		rp := base.Risks[risk]
		rows = append(rows, []string{env, "risk " + risk, describeRisk(rp, ep)})
	}
	return rows
}

// riskNote explains the risk rows of a policy table, when it has any.
func riskNote(rows [][]string) string {
	for _, r := range rows {
		if strings.HasPrefix(r[1], "risk ") {
			return " A risk rule judges every plan that carries the risk, whatever its verb (data-loss: it destroys or replaces a resource its blueprint marks as holding data), as a rule of its own: the plan runs only when the verb's rule and each risk rule hold, each counting approvals from its own approvers."
		}
	}
	return ""
}

// PolicyCodeInForce closes `policy` when a policy set (policy_dirs) is in force: beside the
// rules above, these judge every plan, and one may deny it or ask for more approvals.
// rules are the set's deciding rules with their files and lines (rego.Set.Rules).
func PolicyCodeInForce(sha string, rules []string) string {
	return fmt.Sprintf("Policy as code also judges every plan (set sha256:%s): %s. A deny makes a plan unapprovable, a require asks for more approvals beside the rules above, a warn is shown; @eos why PLAN-ID says what they decided.",
		ShortSHA(sha), strings.Join(rules, ", "))
}
