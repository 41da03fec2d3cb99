package eostest

import (
	"regexp"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
)

// The conversation helpers the engine's tests share: in package bot beside the unit tests and
// in bot/e2e beside the end-to-end and conformance tests.

// PlanIDRe finds a plan's ID in a post ("Plan 7f3a9c21").
var PlanIDRe = regexp.MustCompile(`Plan ([0-9a-f]{8})`)

// Preview says text as user and waits for the preview it asks for; it returns the preview and
// the plan's ID.
func Preview(t *testing.T, h *Harness, user, text string) (console.Post, string) {
	t.Helper()
	after := h.Last()
	h.Say(user, text)
	p := h.WaitText(after, "Plan ", "React ✅ to approve")
	return p, PlanIDRe.FindStringSubmatch(p.Text)[1]
}

// Deploy asks for service, approves it as bob and waits for the run to finish.
func Deploy(t *testing.T, h *Harness, service string) {
	t.Helper()
	p, id := Preview(t, h, "alice", "@eos create "+service)
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
}

// Lines splits a post into its lines.
func Lines(p console.Post) []string { return strings.Split(p.Text, "\n") }

// ContainsAll says whether s contains every one of subs.
func ContainsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// RiskPolicy needs one approval, with self-approval, except for a plan that loses data: two,
// never the requester's.
func RiskPolicy() bot.Policy {
	return bot.Policy{Default: bot.EnvPolicy{Approvals: 1}, Envs: map[string]bot.EnvPolicy{"local": {
		Approvals: 1, SelfApproval: true,
		Risks: map[string]bot.RiskPolicy{bot.RiskDataLoss: {Approvals: 2}},
	}}}
}
