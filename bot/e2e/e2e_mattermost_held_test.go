package e2e_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
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
	dir := t.TempDir()
	work := filepath.Join(dir, "terraform")
	fill := eostest.FullDisk(t, work)
	first := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, first, id, preview)
	free := fill()
	s.Bob.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Plan "+id+" was approved, but the disk holding "+work+" is full", "The approval is kept")
	first.Stop()

	s.Bob.Unreact(t, preview.Id, "+1")
	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	second.Idle()
	if got, err := second.Store.Plan(context.Background(), id); err != nil || got.State != store.PlanPending || len(got.Approvals) != 0 || got.Held != nil {
		t.Fatalf("held plan whose ✅ was removed while Eos was down, after the restart: %+v, %v; want pending, no approval, not held", got, err)
	}
	free()
	second.Idle()
	if r, err := second.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("an approval taken back while Eos was down ran once space was freed: %+v", r)
	}
}
