package enginetest_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A digest run forgets its posts older than 30 days, so a 🔧 on them plans nothing, and drift
// checks older than 90 days, so `drift history` no longer lists them; recent checks and posts
// keep working. A 🔧 on an old post Eos still knows is answered once with what to say instead.
func TestRetentionOfDigestPostsAndDriftHistory(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	start := time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC)
	clock := eostest.NewClock(start)
	h := eostest.New(t, eostest.Options{Clock: clock, Policy: wrenchPolicy, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *"},
	}})
	ctx := context.Background()
	eostest.Deploy(t, h, "grafana")
	h.Engine.RunDueDigests(ctx) // the first call starts the schedule

	// The second digest runs 31 days after the first one, at pruneAt.
	pruneAt := start.Add(90*time.Second + 31*day)
	var seeds []store.DriftRecord
	for _, age := range []int{120, 91, 89} {
		seeds = append(seeds, store.DriftRecord{Key: "local/grafana", At: pruneAt.Add(-time.Duration(age) * day),
			Status: "clean", Summary: "seeded " + strconv.Itoa(age) + " days before"})
	}
	if err := h.Store.RecordDrift(ctx, seeds); err != nil {
		t.Fatal(err)
	}
	resizeServer(t, h, "proxy-grafana-local", "xlarge")

	clock.Advance(90 * time.Second)
	after := h.Last()
	if n := h.Engine.RunDueDigests(ctx); n != 1 {
		t.Fatalf("%d digests ran at 08:00:30, want 1", n)
	}
	head := h.WaitText(after, "1 new since the last digest")
	old := h.WaitPost(head.ID, func(p console.Post) bool {
		return p.Thread == head.ID && strings.HasPrefix(p.Text, "grafana (local) · Terraform: 1 change")
	})
	oldRef := h.Console.Ref(old)
	oldPost, err := h.Store.DigestPost(ctx, oldRef)
	if err != nil {
		t.Fatal(err)
	}

	clock.Advance(31 * day)
	after = h.Last()
	if n := h.Engine.RunDueDigests(ctx); n != 1 {
		t.Fatalf("%d digests ran 31 days later, want 1", n)
	}
	head = h.WaitText(after, "1 still drifted, the oldest for 31 days", "drifted since")
	fresh := h.WaitPost(head.ID, func(p console.Post) bool {
		return p.Thread == head.ID && strings.HasPrefix(p.Text, "grafana (local) · Terraform: 1 change")
	})

	wrench := func(user string, post adapters.PostRef) {
		h.Engine.HandleReaction(ctx, h.Console, adapters.Reaction{User: adapters.User{ID: user, Name: user},
			Emoji: "wrench", At: clock.Now(), Post: post})
		h.Idle() // the reaction is handled, or ignored, before anything is counted
	}
	reconciles := func() int {
		plans, err := h.Store.Plans(ctx, func(p *store.Plan) bool { return p.Plan.Spec.Verb == "reconcile" })
		if err != nil {
			t.Fatal(err)
		}
		return len(plans)
	}
	tooOld := func() int {
		n := 0
		for _, p := range h.Console.Posts() {
			if p.Author == "eos" && strings.Contains(p.Text, "This digest is too old to act on") {
				n++
			}
		}
		return n
	}

	// The first digest's reply was forgotten: its 🔧 is a reaction on an unknown post.
	after = h.Last()
	wrench("alice", oldRef)
	if n := reconciles(); n != 0 {
		t.Fatalf("a 🔧 on a 31-day-old digest post made %d reconcile plans, want 0", n)
	}
	if n := tooOld(); n != 0 {
		t.Errorf("a forgotten post was answered %d times, want silence", n)
	}

	// An old post not pruned yet is answered once, with the command to use instead.
	if err := h.Store.AddDigestPosts(ctx, *oldPost); err != nil {
		t.Fatal(err)
	}
	wrench("alice", oldRef)
	wrench("alice", oldRef)
	got := h.WaitText(after, "This digest is too old to act on")
	if !strings.Contains(got.Text, "ask @eos reconcile grafana in local. Nothing planned.") {
		t.Errorf("the answer to a 🔧 on an old digest:\n%s", got.Text)
	}
	if n, r := tooOld(), reconciles(); n != 1 || r != 0 {
		t.Errorf("an old known post: answered %d times with %d reconcile plans, want 1 and 0", n, r)
	}

	// The fresh digest's reply still plans.
	wrench("alice", h.Console.Ref(fresh))
	h.WaitText(head.ID, "reconcile grafana in local · asked by @alice")

	after = h.Last()
	h.Say("alice", "@eos drift history grafana")
	hist := h.WaitText(after, "Drift history of local/grafana")
	for _, gone := range []string{"seeded 120 days before", "seeded 91 days before"} {
		if strings.Contains(hist.Text, gone) {
			t.Errorf("drift history still lists the check %s:\n%s", gone, hist.Text)
		}
	}
	if !strings.Contains(hist.Text, "seeded 89 days before") || strings.Count(hist.Text, "drifted") != 2 {
		t.Errorf("drift history lost recent checks:\n%s", hist.Text)
	}
}
