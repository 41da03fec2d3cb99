package enginetest_test

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
)

// `why PLAN-ID` says the rule, who approved, whose reactions did not count and why, and what
// is still needed.
func TestWhyExplainsWhoCountedAndWhoDidNot(t *testing.T) {
	t.Parallel()
	policy := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "dave"}, Approvals: 2}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: policy})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("carol", p.ID, "+1")
	h.WaitText(p.ID, "@carol can't approve local plans")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID-1, "Plan "+id, "1 of 2: @bob ✅")

	after := h.Last()
	h.Say("erin", "@eos why "+id)
	got := h.WaitText(after, "Plan "+id+" · create grafana in local")
	for _, want := range []string{
		"Rule: Needs 2 approvals from @bob or @dave — not @alice (asked).",
		"Approved by @bob at ", "(1 of 2)",
		"Still needed: 1 more approval before ",
		"Reactions that did not count:", "@carol can't approve local plans (approvers: @bob, @dave)",
	} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("why lacks %q:\n%s", want, got.Text)
		}
	}
	after = h.Last()
	h.Say("erin", "@eos why 00000000")
	h.WaitText(after, "There is no plan 00000000")
}
