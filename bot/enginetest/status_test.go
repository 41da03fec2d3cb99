package enginetest_test

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// status lists what is deployed, and which plans wait for whom; only a named service gets the
// live "running now" column.
func TestStatusListsDeployedAndWaitingPlans(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	ask := func(text string, want ...string) string {
		t.Helper()
		after := h.Last()
		h.Say("alice", text)
		return h.WaitText(after, want...).Text
	}
	ask("@eos status", "Nothing is deployed yet.")

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	got := ask("@eos status", "Waiting for approval:")
	for _, want := range []string{"Nothing deployed yet.", "Plan " + id + " · create grafana in local · asked by @alice · expires "} {
		if !strings.Contains(got, want) {
			t.Errorf("status with a pending plan lacks %q:\n%s", want, got)
		}
	}
	ask("@eos status jenkins", "jenkins is not deployed yet.")

	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	all := ask("@eos status", "Deployed")
	if strings.Contains(all, "running now") || strings.Contains(all, "Waiting for approval") {
		t.Errorf("status of everything shows a live column or a plan that no longer waits:\n%s", all)
	}
	if !strings.Contains(all, "@eos status SERVICE also shows what runs now") || !strings.Contains(all, "run "+id) {
		t.Errorf("status of everything lacks the run or the hint:\n%s", all)
	}
	if one := ask("@eos status grafana", "Deployed"); !strings.Contains(one, "running now") {
		t.Errorf("status of one service lacks the live column:\n%s", one)
	}
}
