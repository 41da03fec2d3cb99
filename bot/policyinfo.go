package bot

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/intents"
)

// describeEnv says in one line what ep asks: who may ask, who may approve, how many approvals,
// self-approval and how long a plan waits.
func describeEnv(ep EnvPolicy) string {
	self := "off"
	if ep.SelfApproval {
		self = "on"
	}
	return fmt.Sprintf("requesters: %s · approvers: %s · %d approval%s · self-approval %s · plans expire after %s",
		mentions(ep.Requesters), mentions(ep.Approvers), ep.Approvals, plural(ep.Approvals), self, shortDuration(ep.TTL))
}

// describeRisk says in one line what a risk rule asks besides the verb's rule (ep): "also 2
// approvals from @dave, @erin · self-approval off".
func describeRisk(rp RiskPolicy, ep EnvPolicy) string {
	approvers := rp.Approvers
	if len(approvers) == 0 {
		approvers = ep.Approvers
	}
	self := "off"
	if rp.SelfApproval && ep.SelfApproval {
		self = "on"
	}
	n := max(rp.Approvals, 1)
	return fmt.Sprintf("also, beside the verb's rule: %d approval%s from %s · self-approval %s", n, plural(n), mentions(approvers), self)
}

// shortDuration writes a configured duration as it is usually typed: 30m, 1h30m, 45s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// policyRows lists the effective policy of env: one row for the environment and one for each verb
// that has its own rule.
func policyRows(p Policy, env string) [][]string {
	ep := p.For(env, "")
	rows := [][]string{{env, "every verb", describeEnv(ep)}}
	base, ok := p.Envs[env]
	if !ok {
		base = p.Default
	}
	for _, verb := range slices.Sorted(maps.Keys(base.Verbs)) {
		rows = append(rows, []string{env, verb, describeEnv(p.For(env, verb))})
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

// policyEnvs are the environments whose policy `policy` shows: the declared ones.
func (e *Engine) policyEnvs() []string { return e.knownEnvs() }

// leftOutNote says what happens to requests for environments not declared.
func (e *Engine) leftOutNote() string {
	return "Requests for other environments are refused, except in one that still holds services: there destroy, status, drift and history work, under the rule for environments without their own (" +
		describeEnv(e.policy().Default.WithDefaults()) + ")."
}

// answerPolicy answers `policy [ENV]` and `help policy`: the rule that governs each environment,
// exactly as the engine applies it.
func (e *Engine) answerPolicy(ctx context.Context, c conv, in *intents.Intent) {
	envs := e.policyEnvs()
	if in.Env != "" {
		envs = []string{in.Env}
	}
	var rows [][]string
	for _, env := range envs {
		rows = append(rows, policyRows(e.policy(), env)...)
	}
	note := "People are judged by their platform account, not their name: a handle in the policy counts for whoever holds it at the moment of the reaction." + riskNote(rows)
	note += " " + e.leftOutNote()
	e.say(ctx, c.adapter, c.msg.Post, adapters.NewDoc(adapters.Heading{Text: "Approval policy"},
		adapters.Table{Header: []string{"env", "verb", "rule"}, Rows: rows}, adapters.Context{Text: note}))
}

// LogPolicy writes the effective policy of every environment it knows to log, one line each,
// so an operator sees at start-up exactly what governs approvals.
func (e *Engine) LogPolicy(log *slog.Logger) {
	for _, env := range e.policyEnvs() {
		for _, r := range policyRows(e.policy(), env) {
			log.Info("approval policy", "env", r[0], "verb", r[1], "rule", r[2])
		}
	}
	log.Info("approval policy: "+e.leftOutNote(), "environments", e.knownEnvs())
}
