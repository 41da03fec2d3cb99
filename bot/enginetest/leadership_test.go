package enginetest_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// switchLeader is a Leadership a test deposes by hand.
type switchLeader struct {
	mu  sync.Mutex
	err error
}

func (l *switchLeader) Valid() error { l.mu.Lock(); defer l.mu.Unlock(); return l.err }
func (l *switchLeader) Role() string {
	if l.Valid() != nil {
		return "standby"
	}
	return "leader"
}
func (l *switchLeader) depose(err error) { l.mu.Lock(); l.err = err; l.mu.Unlock() }

// settle waits until the engine has handled everything handed to it.
func settle(t *testing.T, h *eostest.Harness) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), eostest.Timeout)
	defer cancel()
	if err := h.Engine.Settle(ctx); err != nil {
		t.Fatal(err)
	}
}

// A replica that no longer leads (paused, then woken after another took over) answers no
// message, counts no reaction and posts nothing, even before the store refuses its writes.
func TestDeposedLeaderDoesNothing(t *testing.T) {
	t.Parallel()
	l := &switchLeader{}
	h := eostest.New(t, eostest.Options{Leader: l})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	if got := h.Engine.Health(context.Background()).Role; got != "leader" {
		t.Fatalf("/healthz role while leading = %q", got)
	}
	l.depose(errors.New("lease ran out 7s ago"))
	before := h.Last()
	ctx := context.Background()
	h.Engine.HandleMessage(ctx, h.Console, h.Console.Say("@eos status"))
	h.Engine.HandleReaction(ctx, h.Console, adapters.Reaction{Post: h.Console.Ref(p),
		User: adapters.User{ID: "bob", Name: "bob"}, Emoji: "+1", At: time.Now()})
	settle(t, h)
	if n := h.Last(); n != before+1 { // the request itself, and no answer
		t.Fatalf("the deposed leader posted %d time(s): %+v", n-before, h.Console.Posts()[before:])
	}
	plan, err := h.Store.Plan(ctx, id)
	if err != nil || plan.State != store.PlanPending || len(plan.Approvals) != 0 {
		t.Fatalf("plan after a reaction to the deposed leader = %+v, %v; want pending, no approvals", plan, err)
	}
	if got := h.Engine.Health(ctx).Role; got != "standby" {
		t.Fatalf("/healthz role once deposed = %q", got)
	}
	rec := httptest.NewRecorder()
	h.Engine.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if !strings.Contains(rec.Body.String(), "\neos_leader 0\n") {
		t.Fatalf("/metrics once deposed lacks eos_leader 0:\n%s", rec.Body.String())
	}
}

// A message delivered twice (live to a leader that died, then in the next leader's catch-up)
// is answered once.
func TestRedeliveredMessageIsAnsweredOnce(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Leader: &switchLeader{}})
	m := h.Console.Say("@eos help")
	before := h.Last()
	ctx := context.Background()
	h.Engine.HandleMessage(ctx, h.Console, m)
	h.Engine.HandleMessage(ctx, h.Console, m)
	settle(t, h)
	answers := 0
	for _, p := range h.Console.Posts()[before:] {
		if p.Author == "eos" {
			answers++
		}
	}
	if answers != 1 {
		t.Fatalf("a message delivered twice got %d answers, want 1: %+v\n%s", answers, h.Console.Posts()[before:], h.Log.String())
	}
}
