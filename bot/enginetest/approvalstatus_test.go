package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// twoApprovals: local plans need two approvals from bob, dave or anyone in sre (erin).
var twoApprovals = bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "dave", "group:sre"}, Approvals: 2}, Envs: map[string]bot.EnvPolicy{}}

const twoApprovalsRule = "Needs 2 approvals from @bob, @dave or group:sre — not @alice (asked) · expires "

// waitPreview waits until the preview post (its number unchanged) holds every one of texts,
// and returns it.
func waitPreview(t *testing.T, h *eostest.Harness, preview console.Post, texts ...string) console.Post {
	t.Helper()
	return h.WaitPost(preview.ID-1, func(p console.Post) bool { return p.ID == preview.ID && eostest.ContainsAll(p.Text, texts...) })
}

// previewRest is the preview without its status line: what must not change.
func previewRest(p console.Post) string {
	lines := strings.Split(p.Text, "\n")
	return strings.Join(lines[:len(lines)-1], "\n")
}

// botReplies are the bot's posts after number after that are not the preview itself.
func botReplies(h *eostest.Harness, after int, texts ...string) []string {
	var out []string
	for _, p := range h.Console.Posts() {
		if p.ID > after && p.Author == "eos" && eostest.ContainsAll(p.Text, texts...) {
			out = append(out, p.Text)
		}
	}
	return out
}

// The preview states the rule by name, then its status line follows each approval in place:
// 1 of 2, then approved and running; the rest of the preview never changes, and no reply
// repeats what the preview shows.
func TestPreviewStatusFollowsApprovals(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals, ConsoleGroups: map[string][]string{"sre": {"erin"}}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	if !strings.Contains(p.Text, twoApprovalsRule) {
		t.Fatalf("the preview does not state the rule:\n%s", p.Text)
	}
	rest := previewRest(p)

	h.React("bob", p.ID, "+1")
	one := waitPreview(t, h, p, "1 of 2: @bob ✅ · waiting for one more · React ✅ to approve")
	if previewRest(one) != rest {
		t.Errorf("more than the status line changed:\n--- before\n%s\n--- after\n%s", rest, previewRest(one))
	}
	h.Unreact("bob", p.ID, "+1")
	waitPreview(t, h, p, twoApprovalsRule)
	h.WaitPost(p.ID-1, func(q console.Post) bool {
		return q.ID == p.ID && q.Edits == 2 && !strings.Contains(q.Text, "1 of 2")
	})
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	h.React("erin", p.ID, "+1") // in group sre
	h.WaitText(p.ID, "Run "+id+" · done in")
	// When the run ends, the preview says how: no preview is left saying "running".
	done := waitPreview(t, h, p, "approved by @bob ✅ @erin ✅ · run "+id+" done")
	h.Idle()
	if previewRest(done) != rest {
		t.Errorf("more than the status line changed:\n--- before\n%s\n--- after\n%s", rest, previewRest(done))
	}
	if got := botReplies(h, p.ID, "Approval 1 of 2"); len(got) != 0 {
		t.Errorf("the thread repeats what the preview shows: %q", got)
	}
}

func TestPreviewStatusShowsRejection(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("dave", p.ID, "x")
	waitPreview(t, h, p, "Plan "+id, "rejected by @dave ❌ · nothing changed")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("a rejected plan ran: %+v", runs)
	}
	if got := botReplies(h, p.ID, "rejected"); len(got) != 0 {
		t.Errorf("the thread repeats the rejection the preview shows: %q", got)
	}
}

// The sweeper expires a plan nobody approved in time: the preview says so (the eostest clock
// moves past the expiry; ExpireDue is the sweeper's pass).
func TestPreviewStatusShowsExpiry(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{Policy: twoApprovals, Clock: clock})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	h.Idle()
	if n := h.Engine.ExpireDue(context.Background()); n != 0 {
		t.Fatalf("ExpireDue expired %d plans before their time", n)
	}
	clock.Advance(31 * time.Minute)
	h.Engine.ExpireDue(context.Background()) // or the sweeper, should its minute come first
	waitPreview(t, h, p, "Plan "+id, "expired at 14:30 UTC without the approvals it needs · nothing changed")
	if pl, err := h.Store.Plan(context.Background(), id); err != nil || pl.State != store.PlanExpired {
		t.Fatalf("plan = %+v, %v; want expired", pl, err)
	}
}

// `cancel` answers the person who asked and the preview shows who cancelled.
func TestPreviewStatusShowsCancellation(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	after := h.Last()
	h.Say("alice", "@eos cancel "+id)
	h.WaitText(after, "Plan "+id+" cancelled by @alice. Nothing changed.")
	waitPreview(t, h, p, "Plan "+id, "cancelled by @alice · nothing changed")
	pl, err := h.Store.Plan(context.Background(), id)
	if err != nil || pl.State != store.PlanCancelled || pl.Cancellation == nil || pl.Cancellation.By == nil || pl.Cancellation.By.UserID != "alice" {
		t.Fatalf("plan = %+v, %v; want cancelled by alice", pl, err)
	}
}

// An approval given with two emoji stands while one of them is still on the preview: everyone
// reading it still sees the person's ✅. It goes with the last one.
func TestAnApprovalStandsWhileOneOfItsEmojiIsLeft(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	approvals := func() []store.Vote {
		t.Helper()
		got, err := h.Store.Plan(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return got.Approvals
	}
	uncounted := func() {
		t.Helper()
		h.WaitPost(p.ID-1, func(q console.Post) bool { return q.ID == p.ID && !strings.Contains(q.Text, "1 of 2") })
	}
	h.React("bob", p.ID, "+1")
	waitPreview(t, h, p, "1 of 2: @bob ✅ · waiting for one more")
	h.React("bob", p.ID, "✅")
	h.Unreact("bob", p.ID, "+1")
	h.Idle()
	if got := approvals(); len(got) != 1 || got[0].User != "bob" {
		t.Fatalf("after bob took back 👍 but kept ✅, the approvals are %+v, want bob's", got)
	}
	if q := h.Console.Posts()[p.ID-1]; q.ID != p.ID || !strings.Contains(q.Text, "1 of 2: @bob ✅") {
		t.Errorf("the preview no longer counts bob, whose ✅ is still on it:\n%s", q.Text)
	}
	h.Unreact("bob", p.ID, "✅")
	uncounted()
	if got := approvals(); len(got) != 0 {
		t.Fatalf("after bob took back both, the approvals are %+v, want none", got)
	}
	// Given again and delivered twice, then taken back: withdrawn, not left behind.
	h.React("bob", p.ID, "✅")
	h.React("bob", p.ID, "✅")
	waitPreview(t, h, p, "1 of 2: @bob ✅")
	h.Unreact("bob", p.ID, "✅")
	uncounted()
	if got := approvals(); len(got) != 0 {
		t.Fatalf("after bob took back his only ✅, the approvals are %+v, want none", got)
	}
}

// A ✅ on the request rather than on the preview counts for nothing, and its giver is told,
// once, where it would count.
func TestAnApprovalOnTheRequestIsPointedToThePreview(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: twoApprovals})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	request := p.ID - 1
	h.React("bob", request, "+1")
	h.WaitText(p.ID, "@bob, a reaction on the request counts for nothing: to approve, react ✅ on the preview of plan "+id)
	h.React("bob", request, "✅")
	h.React("dave", request, "+1")
	h.WaitText(p.ID, "@dave, a reaction on the request counts for nothing")
	h.Idle()
	told := 0
	for _, q := range h.Console.Posts() {
		if strings.Contains(q.Text, "@bob, a reaction on the request") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("bob was told %d times, want once", told)
	}
	got, err := h.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != store.PlanPending || len(got.Approvals) != 0 {
		t.Fatalf("after ✅s on the request, the plan is %v with approvals %+v, want pending without approvals", got.State, got.Approvals)
	}
}
