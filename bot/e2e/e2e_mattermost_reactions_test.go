package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/mattermost/mattermost/server/public/model"
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

// bob's ✅, delivered again after he took it off (as a client's replay would), does not count:
// Eos asks the server whether it is on the preview, and the server says no. So carol's
// approval does not complete the two the plan needs with it, and nothing runs.
func TestE2EMattermostApprovalDeliveredAfterItWasTakenOffDoesNotCount(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-late-approval")
	two := bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "carol"}, Approvals: 2}}
	b := startMMBot(t, s, ch, eostest.Options{Policy: two})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, b, id, preview)
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "1 of 2: @bob ✅")
	s.Bob.Unreact(t, preview.Id, "white_check_mark")
	s.WaitPost(t, req.Id, func(p *model.Post) bool { return p.Id == preview.Id && !strings.Contains(p.Message, "1 of 2") })
	b.Idle()
	if got := planApprovals(t, b, id); len(got) != 0 {
		t.Fatalf("approvals once bob took his ✅ off = %v, want none", got)
	}

	late := adapters.Reaction{Post: adapters.PostRef{Platform: "mattermost", Channel: ch.Id, ID: preview.Id, Thread: req.Id},
		User: adapters.User{ID: s.Bob.User.Id, Name: "bob"}, Emoji: "white_check_mark", At: time.Now()}
	b.Engine.HandleReaction(context.Background(), b.Adapter, late)
	botSays(t, s, req.Id, "@bob, your ✅ on plan "+id+" does not count: by the time Eos asked Mattermost, it was no longer on the preview")
	s.Carol.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "1 of 2: @carol ✅")
	b.Idle()
	if got := planApprovals(t, b, id); len(got) != 1 || got[0] != "carol" {
		t.Fatalf("approvals = %v, want carol's alone", got)
	}
	if r, err := b.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("a ✅ delivered after it was taken off ran the plan: %+v", r)
	}
}

// planApprovals are the handles whose approvals plan id holds.
func planApprovals(t *testing.T, b *mmBot, id string) []string {
	t.Helper()
	p, err := b.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if p.State != store.PlanPending {
		t.Fatalf("plan %s is %s, want pending", id, p.State)
	}
	var out []string
	for _, v := range p.Approvals {
		out = append(out, v.User)
	}
	return out
}
