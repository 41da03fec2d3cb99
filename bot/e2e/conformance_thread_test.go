package e2e_test

import (
	"context"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// `@eos why`, `@eos plan full` and `@eos cancel` said in a preview's thread, without a plan id, are about that
// plan on every platform (on Discord the thread is a channel of its own, started from the
// request): people answer a preview where it is.
func TestConformanceCommandsInThePlansThreadNeedNoID(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, _, id := askOn(t, p, "alice", "@eos create grafana in production")
		p.say(t, "bob", root, "@eos why")
		waitPost(t, p, root, "Plan "+id+" · create grafana in production · asked by @alice · pending", "No approval counts yet")
		p.say(t, "bob", root, "@eos plan full")
		waitPost(t, p, root, "Plan "+id+" · create grafana in production · pending", "eoslab_firewall.main")
		p.say(t, "alice", root, "@eos cancel")
		waitPost(t, p, root, "Plan "+id+" cancelled by @alice")
		h.Idle()
		if pl, err := h.Store.Plan(context.Background(), id); err != nil || pl.State != store.PlanCancelled {
			t.Fatalf("plan %s = %+v, %v; want cancelled", id, pl, err)
		}
		// A closed plan is still its thread's.
		p.say(t, "bob", root, "@eos why")
		waitPost(t, p, root, "Plan "+id+" · create grafana in production · asked by @alice · cancelled")
	})
}
