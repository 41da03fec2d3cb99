package e2e_test

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
)

// A 👍 with a skin tone (Mattermost's "+1_medium_skin_tone", what a person whose emoji picker
// has one set sends) approves as 👍 does; before, Eos ignored it without a word.
func TestE2EMattermostSkinTonedApprovalCounts(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-skin-tone")
	b := startMMBot(t, s, ch, eostest.Options{})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	s.Bob.React(t, preview.Id, "+1_medium_skin_tone")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	b.Idle()
	r, err := b.Store.Run(context.Background(), id)
	if err != nil || len(r.Approvers) != 1 || r.Approvers[0] != "bob" {
		t.Fatalf("run = %+v (%v), want one approved by bob", r, err)
	}
}
