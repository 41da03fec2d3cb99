package enginetest_test

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// `@eos policy` names the policy set in force beside the approval rules, with each deciding
// rule and where it is written: a teammate who asks what governs approvals must not learn of a
// rule that can deny or hold their plan only when it does. Without a set it says nothing of one.
func TestPolicyNamesThePolicySetInForce(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	after := h.Last()
	h.Say("alice", "@eos policy")
	h.WaitText(after, "Approval policy", "Policy as code also judges every plan (set sha256:"+set.SHA256()[:12]+"): eos.retired.deny (retired.rego:3).",
		"@eos why PLAN-ID says what they decided.")

	h.Engine.SetPolicyCode(nil)
	after = h.Last()
	h.Say("alice", "@eos policy")
	if p := h.WaitText(after, "Approval policy"); strings.Contains(p.Text, "Policy as code") {
		t.Errorf("with no set in force, policy still names one:\n%s", p.Text)
	}
}
