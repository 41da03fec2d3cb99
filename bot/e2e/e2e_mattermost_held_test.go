package e2e_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// An approval held because the disk is full stands only while its ✅ does: bob removes it
// while Eos is down, which Mattermost does not deliver later, and the restarted Eos, finding
// the ✅ gone from the preview, takes the approval back; once space is freed nothing runs.
func TestE2EMattermostHeldApprovalWithdrawnWhileBotDown(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-held-withdrawn")
	dir, _, preview, id, free := heldOnMattermost(t, s, ch)

	s.Bob.Unreact(t, preview.Id, "+1")
	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	second.Idle()
	if got, err := second.Store.Plan(context.Background(), id); err != nil || got.State != store.PlanPending || len(got.Approvals) != 0 || got.Held != nil {
		t.Fatalf("held plan whose ✅ was removed while Eos was down, after the restart: %+v, %v; want pending, no approval, not held", got, err)
	}
	nothingRunsOnceFreed(t, second.Harness, id, free, "an approval taken back while Eos was down")
}

// An approval on a waiting plan stands only while its ✅ does, across a restart too: bob
// takes his back while Eos is down and carol gives hers. The restarted Eos counts carol's and
// not bob's, so the plan still waits for a second approval. Before, bob's stayed recorded
// (Mattermost delivers no removal later) and, with carol's, ran the plan.
func TestE2EMattermostPendingApprovalWithdrawnWhileBotDown(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-pending-withdrawn")
	dir := t.TempDir()
	two := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol"}, Approvals: 2}}
	first := startMMBot(t, s, ch, eostest.Options{DataDir: dir, Policy: two})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, first, id, preview)
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "1 of 2: @bob ✅")
	first.Stop()

	s.Bob.Unreact(t, preview.Id, "white_check_mark")
	s.Carol.React(t, preview.Id, "white_check_mark")
	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir, Policy: two})
	second.Idle()
	got, err := second.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != store.PlanPending || len(got.Approvals) != 1 || got.Approvals[0].User != "carol" {
		t.Fatalf("after the restart the plan is %v with approvals %+v; want pending with carol's approval only", got.State, got.Approvals)
	}
	if r, err := second.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("an approval taken back while Eos was down ran the plan: %+v", r)
	}
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
}

// A ❌ given while Eos is down on a plan approved but not started (held for space) halts it
// when Eos starts again, as it would have had Eos heard it: nothing runs once space is freed.
// On Mattermost the adapter's catch-up delivers the ❌ too; on Slack only the engine's reading
// of the preview's reactions finds it (TestE2ESlackHeldPlanRejectedWhileBotDown).
func TestE2EMattermostHeldPlanRejectedWhileBotDown(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-held-rejected")
	dir, req, preview, id, free := heldOnMattermost(t, s, ch)

	s.Bob.React(t, preview.Id, "x")
	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	botSays(t, s, req.Id, "Plan "+id+" cancelled by @bob before its run started")
	second.Idle()
	if got, err := second.Store.Plan(context.Background(), id); err != nil {
		t.Fatal(err)
	} else if got.State != store.PlanCancelled {
		t.Fatalf("held plan rejected while Eos was down, after the restart: %v; want cancelled", got.State)
	}
	nothingRunsOnceFreed(t, second.Harness, id, free, "a plan rejected while Eos was down")
}

// heldOnMattermost is the start of each held-plan test: alice asks in ch for grafana, bob
// approves, the full work directory holds the approval, and the bot stops. It returns the
// bot's data directory, the request, the preview, the plan's id, and what frees the disk.
func heldOnMattermost(t *testing.T, s *mmtest.Server, ch *model.Channel) (dir string, req, preview *model.Post, id string, free func()) {
	t.Helper()
	dir = t.TempDir()
	work := filepath.Join(dir, "terraform")
	fill := eostest.FullDisk(t, work)
	first := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	req, preview, id = ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, first, id, preview)
	free = fill()
	s.Bob.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Plan "+id+" was approved, but the disk holding "+work+" is full", "The approval is kept")
	first.Stop()
	return dir, req, preview, id, free
}

// nothingRunsOnceFreed frees the disk that held plan id and checks that h starts no run of
// it; what names the plan in the failure.
func nothingRunsOnceFreed(t *testing.T, h *eostest.Harness, id string, free func(), what string) {
	t.Helper()
	free()
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("%s ran once space was freed: %+v", what, r)
	}
}
