package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A run locks every unit it touches, its dependencies too: while nextcloud's run creates
// authentik, a request that needs authentik is told which run holds it, and nothing is planned
// for it.
func TestRunLocksItsDependencies(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Delay: 700 * time.Millisecond})
	p, id := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
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
	if locks, _ := h.Store.Locks(context.Background()); len(locks) != 0 {
		t.Errorf("the finished run left locks: %+v", locks)
	}
}

// `locks` lists who holds what while a run applies, and frees a lock left over by a run that
// is not running any more, saying so; start-up frees every lock the previous process left.
func TestLocksListsHoldersAndFreesLeftovers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir, Delay: 700 * time.Millisecond, OpsChannels: []string{"console:local"}})
	if _, err := h.Store.TryLock(context.Background(), []string{"local/jenkins"}, "deadbeef", time.Now()); err != nil { // a plan that never ran
		t.Fatal(err)
	}
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id, "Terraform ⏳")

	after := h.Last()
	h.Say("carol", "@eos locks")
	got := h.WaitText(after, "Locks")
	for _, want := range []string{"local/grafana | run " + id + " | @alice", "Freed: local/jenkins (run deadbeef is not running any more)"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("locks answer lacks %q:\n%s", want, got.Text)
		}
	}
	if locks, _ := h.Store.Locks(context.Background()); len(locks) != 1 || locks[0].Key != "local/grafana" {
		t.Errorf("locks after the answer = %+v, want only the running grafana's", locks)
	}
	h.Idle()
	h.Stop()

	st, err := store.Open(dir+"/eos.db", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.TryLock(context.Background(), []string{"local/authentik"}, "cafebabe", time.Now()); err != nil {
		t.Fatal(err)
	}
	st.Close()
	h2 := eostest.New(t, eostest.Options{DataDir: dir})
	if locks, _ := h2.Store.Locks(context.Background()); len(locks) != 0 {
		t.Errorf("locks after a restart = %+v, want none", locks)
	}
	eostest.Preview(t, h2, "alice", "@eos create authentik")
}
