package enginetest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// approvers are the people whose approvals plan id holds, in order.
func approvers(t *testing.T, h *eostest.Harness, id string) []string {
	t.Helper()
	p, err := h.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, v := range p.Approvals {
		out = append(out, v.UserID)
	}
	return out
}

// A ✅ delivered again after its person took it off (a platform's retry, a replayed event)
// does not count: Eos asks the platform whether the emoji is still on the preview before it
// counts one, so it cannot complete the approvals with a vote nobody shows.
func TestAnApprovalDeliveredAfterItWasTakenOffDoesNotCount(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals, ConsoleGroups: map[string][]string{"sre": {"erin"}}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	h.Unreact("bob", p.ID, "+1")
	h.WaitPost(p.ID-1, func(q console.Post) bool { return q.ID == p.ID && q.Edits == 2 })

	after := h.Last()
	late := adapters.Reaction{Post: h.Console.Ref(p), User: adapters.User{ID: "bob", Name: "bob"}, Emoji: "+1", At: time.Now()}
	h.Engine.HandleReaction(context.Background(), h.Console, late)
	h.WaitText(after, "@bob, your ✅ on plan "+id+" does not count: by the time Eos asked the console, it was no longer on the preview. If it is there now, take it off and put it back.")
	if got := approvers(t, h, id); len(got) != 0 {
		t.Fatalf("approvals after a ✅ delivered late = %v, want none", got)
	}

	h.React("erin", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @erin ✅")
	h.Idle()
	if got := approvers(t, h, id); len(got) != 1 || got[0] != "erin" {
		t.Fatalf("approvals = %v, want erin's alone", got)
	}
	if pl, _ := h.Store.Plan(context.Background(), id); pl.State != store.PlanPending {
		t.Fatalf("plan is %s after one shown approval of two, want pending", pl.State)
	}
	// The same late ✅ again is not answered twice.
	h.Engine.HandleReaction(context.Background(), h.Console, late)
	h.Idle()
	if got := botReplies(h, after, "does not count: by the time Eos asked"); len(got) != 1 {
		t.Fatalf("the late ✅ was answered %d times, want once: %q", len(got), got)
	}
}

// A removal delivered again after its person put the ✅ back takes nothing back: the preview
// shows the ✅, and the approval stands.
func TestARemovalDeliveredAfterTheApprovalWasPutBackChangesNothing(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals, ConsoleGroups: map[string][]string{"sre": {"erin"}}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	late := adapters.Reaction{Post: h.Console.Ref(p), User: adapters.User{ID: "bob", Name: "bob"}, Emoji: "+1", Removed: true, At: time.Now()}
	h.Engine.HandleReaction(context.Background(), h.Console, late)
	h.Idle()
	if got := approvers(t, h, id); len(got) != 1 || got[0] != "bob" {
		t.Fatalf("approvals after a removal delivered while the ✅ is shown = %v, want bob's", got)
	}
	h.React("erin", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
}

// A removal Eos cannot check with the platform is taken as delivered: it leaves fewer
// approvals, never more.
func TestARemovalThePlatformCannotConfirmIsTaken(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	removal := adapters.Reaction{Post: h.Console.Ref(p), User: adapters.User{ID: "bob", Name: "bob"}, Emoji: "+1", Removed: true, At: time.Now()}
	h.Engine.HandleReaction(context.Background(), unlisting{h.Console}, removal)
	h.WaitPost(p.ID-1, func(q console.Post) bool { return q.ID == p.ID && q.Edits == 2 })
	h.Idle()
	if got := approvers(t, h, id); len(got) != 0 {
		t.Fatalf("approvals after an unconfirmed removal = %v, want none", got)
	}
}

// unlisting is the console on a day its reactions cannot be read.
type unlisting struct{ *console.Adapter }

func (unlisting) Reactions(context.Context, adapters.PostRef) ([]adapters.Reaction, error) {
	return nil, errors.New("reading reactions of post 2: 503 Service Unavailable")
}

// When the platform cannot say whether a ✅ is on the preview, it does not count yet, and its
// person is told why and what to do; nothing else changes.
func TestAnApprovalThePlatformCannotConfirmDoesNotCountYet(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	after := h.Last()
	r, err := h.Console.ReactAs(h.Console.Ref(p), "bob", "+1")
	if err != nil {
		t.Fatal(err)
	}
	h.Engine.HandleReaction(context.Background(), unlisting{h.Console}, r)
	h.WaitText(after, "@bob, your ✅ on plan "+id+" does not count yet: Eos could not confirm with the console that it is on the preview (reading reactions of post 2: 503 Service Unavailable). Nothing changed and nothing starts from it: take it off and put it back in a moment.")
	h.Idle()
	if got := approvers(t, h, id); len(got) != 0 {
		t.Fatalf("approvals after an unconfirmed ✅ = %v, want none", got)
	}
	// Once the platform answers, the same ✅ counts.
	h.Engine.HandleReaction(context.Background(), h.Console, r)
	waitPreview(t, h, p, "1 of 2: @bob ✅")
}
