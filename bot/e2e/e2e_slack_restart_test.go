package e2e_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/adapters/slack/slackfake"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// startSlackOn runs a bot with opts on Slack fake f (which outlives it, as Slack outlives a
// restart of Eos) and returns it with a function that stops it.
func startSlackOn(t *testing.T, f *slackfake.Fake, opts eostest.Options) (*eostest.Harness, func()) {
	t.Helper()
	a, err := slack.New(slack.Config{AppToken: slackfake.AppToken, BotToken: slackfake.BotToken, APIURL: f.APIURL(),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	f.Mu.Lock()
	before := f.Opens
	f.Mu.Unlock()
	off, cut := context.WithCancel(context.Background())
	opts.Adapters = []adapters.Adapter{slackOff{a, off}}
	h := eostest.New(t, opts)
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cut()
			h.Stop()
		}
	}
	t.Cleanup(stop)
	// The fake sends events on the newest connection: wait for this bot's, not the last one's.
	for n := before; n <= before; {
		select {
		case n = <-f.Connected:
		case <-time.After(eostest.Timeout):
			t.Fatal("the Slack adapter did not connect")
		}
	}
	return h, stop
}

// A ❌ given on Slack while Eos is down, on a plan approved but not started (held for space),
// halts it when Eos starts again, as it would have had Eos heard it; nothing runs once space
// is freed. Slack delivers no event from while the app was away: Eos reads the reactions on
// the preview. Before, it looked there only for removed ✅s, and the plan ran.
func TestE2ESlackHeldPlanRejectedWhileBotDown(t *testing.T) {
	t.Parallel()
	s, root, _, id, free, second := heldOnSlackRestarted(t, slackfake.Reaction{Name: "+1", Count: 1, Users: []string{"UBO"}},
		slackfake.Reaction{Name: "x", Count: 1, Users: []string{"UBO"}})
	waitPost(t, s, root, "Plan "+id+" cancelled by @bob before its run started")
	second.Idle()
	if got, err := second.Store.Plan(context.Background(), id); err != nil {
		t.Fatal(err)
	} else if got.State != store.PlanCancelled {
		t.Fatalf("held plan rejected while Eos was down, after the restart: %v; want cancelled", got.State)
	}
	nothingRunsOnceFreed(t, second, id, free, "a plan rejected while Eos was down")
}

// An approval whose emoji changed while Eos was down (bob's 👍 swapped for ✅) stands on the
// one the preview shows now, and goes when bob takes that back: nothing runs once space is
// freed. Before, Eos kept the 👍 it had heard as still given, and the approval outlived the ✅.
func TestE2ESlackApprovalEmojiSwappedWhileBotDown(t *testing.T) {
	t.Parallel()
	s, root, preview, id, free, second := heldOnSlackRestarted(t, slackfake.Reaction{Name: "white_check_mark", Count: 1, Users: []string{"UBO"}})
	second.Idle()
	if got, err := second.Store.Plan(context.Background(), id); err != nil {
		t.Fatal(err)
	} else if got.State != store.PlanApproved || len(got.Approvals) != 1 {
		t.Fatalf("after the restart the plan is %v with approvals %+v; want approved by bob, whose ✅ is on the preview", got.State, got.Approvals)
	}
	s.waitLive(t)
	s.f.Send(map[string]any{"type": "reaction_removed", "user": "UBO", "reaction": "white_check_mark", "item_user": slackfake.BotID,
		"item": map[string]any{"type": "message", "channel": "CINFRA001", "ts": preview.ID}, "event_ts": s.nextTS()})
	second.Idle()
	waitPost(t, s, root, "React ✅ to approve")
	if got, err := second.Store.Plan(context.Background(), id); err != nil {
		t.Fatal(err)
	} else if got.State != store.PlanPending || len(got.Approvals) != 0 {
		t.Fatalf("after bob took back the ✅ the preview shows, the plan is %v with approvals %+v; want pending, none", got.State, got.Approvals)
	}
	nothingRunsOnceFreed(t, second, id, free, "an approval taken back")
}

// heldOnSlackRestarted is the start of each held-plan test on Slack: alice asks for grafana,
// bob approves (👍), the full work directory holds the approval and the bot stops; while it is
// down the preview's reactions become shown; then a new bot starts beside the same Slack. It
// returns the platform, the thread, the preview, the plan's id, what frees the disk, and the
// new bot.
func heldOnSlackRestarted(t *testing.T, shown ...slackfake.Reaction) (s *slackPlatform, root string, preview post, id string, free func(), second *eostest.Harness) {
	t.Helper()
	f := slackfake.New(t)
	s = &slackPlatform{f: f}
	dir := t.TempDir()
	work := filepath.Join(dir, "terraform")
	fill := eostest.FullDisk(t, work)
	opts := eostest.Options{DataDir: dir, Policy: conformancePolicy}
	first, stop := startSlackOn(t, f, opts)
	root, preview, id = askOn(t, s, "alice", "@eos create grafana")
	free = fill()
	s.react(t, "bob", preview.ID, "+1")
	waitPost(t, s, root, "Plan "+id+" was approved, but the disk holding "+work+" is full")
	first.Idle()
	stop()

	f.Mu.Lock()
	f.Reactions["CINFRA001/"+preview.ID] = shown
	f.Mu.Unlock()
	second, _ = startSlackOn(t, f, opts)
	return s, root, preview, id, free, second
}
