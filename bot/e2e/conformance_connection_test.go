package e2e_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// The connection drops mid-conversation: /healthz says so while it is down, the conversation
// goes on once it is back, and /healthz says connected again.
func TestConformanceReconnectionKeepsTheConversation(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana")
		// The request came through the connection, where there is one: it is up.
		waitHealth(t, h, "healthy", func(hl bot.Health) bool { return hl.OK })
		down := func() {
			got := waitHealth(t, h, "an adapter disconnected", func(hl bot.Health) bool {
				return !hl.OK && slices.ContainsFunc(slices.Collect(maps.Values(hl.Adapters)), func(s string) bool {
					return strings.HasPrefix(s, "disconnected: ")
				})
			})
			t.Logf("health while the connection is down: %v", got.Adapters)
		}
		if !p.dropConnection(t, down) {
			t.Skip("this platform has no connection to drop")
		}
		// alice asks at once, whether or not the adapter is back yet; it answers once it is.
		p.say(t, "alice", root, "@eos plan "+id)
		waitPost(t, p, root, "Plan "+id, "pending")
		p.react(t, "bob", preview.ID, "+1")
		waitPost(t, p, root, "Run "+id, "done in")
		h.Idle()
		if r, err := h.Store.Run(context.Background(), id); err != nil || r.State != store.RunDone {
			t.Fatalf("run %s = %+v, %v; want done", id, r, err)
		}
		waitHealth(t, h, "connected again", connectedHealth)
	})
}

// connectedHealth holds when the engine is healthy and an adapter reports its connection up
// (the platform's, beside the console, which has none and is "running").
func connectedHealth(hl bot.Health) bool {
	return hl.OK && slices.Contains(slices.Collect(maps.Values(hl.Adapters)), "connected")
}

// waitHealth waits until the engine's Health satisfies cond and returns it.
func waitHealth(t *testing.T, h *eostest.Harness, what string, cond func(bot.Health) bool) bot.Health {
	t.Helper()
	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		hl := h.Engine.Health(context.Background())
		if cond(hl) {
			return hl
		}
		if time.Now().After(deadline) {
			t.Fatalf("health not %s within %s: ok=%v store=%q adapters=%v", what, eostest.Timeout, hl.OK, hl.Store, hl.Adapters)
		}
		<-tick.C
	}
}

// bob approves while the connection is down: the approval must count all the same.
func TestConformanceApprovalAcrossADrop(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana")
		if !p.dropConnection(t, nil) {
			t.Skip("this platform has no connection to drop")
		}
		p.react(t, "bob", preview.ID, "+1")
		waitPost(t, p, root, "Run "+id, "done in")
		h.Idle()
		if r, err := h.Store.Run(context.Background(), id); err != nil || r.State != store.RunDone {
			t.Fatalf("run %s = %+v, %v; want done", id, r, err)
		}
	})
}
