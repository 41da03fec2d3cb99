package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
)

// A run locks every unit it touches, its dependencies too: while nextcloud's run creates
// authentik, a request that needs authentik is told which run holds it, and nothing is planned
// for it.
func TestRunLocksItsDependencies(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Delay: 700 * time.Millisecond})
	p, id := preview(t, h, "alice", "@eos create nextcloud --sso")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id, "Terraform ⏳")

	after := h.Last()
	h.Say("carol", "@eos create authentik")
	got := h.WaitText(after, "authentik in local is being changed by run "+id)
	if strings.Contains(got.Text, "React ✅") {
		t.Errorf("a plan was offered for a unit a run holds:\n%s", got.Text)
	}
	h.Idle()
	h.WaitText(p.ID, "Run "+id+" · done in")
	if locks, _ := h.Store.Locks(); len(locks) != 0 {
		t.Errorf("the finished run left locks: %+v", locks)
	}
}
