package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// On a real Mattermost: alice edits her request after the preview; the bot asks her to ask
// again, and the preview post itself now says its plan is cancelled.
func TestE2EMattermostEditedRequestIsNotReplanned(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-edit")
	b := startMMBot(t, s, ch, eostest.Options{})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, b, id, preview)

	text := "@eos create grafana --port 4000"
	if _, _, err := s.Alice.Client.PatchPost(context.Background(), req.Id, &model.PostPatch{Message: &text}); err != nil {
		t.Fatal(err)
	}
	botSays(t, s, req.Id, "@alice, your request was edited after the preview: ask again", "Plan "+id+" was for the request as it read before")
	edited := s.WaitPost(t, req.Id, func(p *model.Post) bool {
		return p.Id == preview.Id && strings.Contains(p.Message, "cancelled: the request was edited after the preview")
	})
	if !strings.Contains(edited.Message, "Plan "+id+" · create grafana") {
		t.Errorf("the edited preview lost its plan:\n%s", edited.Message)
	}
	b.Idle()
	if plans, _ := b.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); len(plans) != 1 || plans[0].State != store.PlanCancelled {
		t.Fatalf("plans after the edit = %+v; want the one plan, cancelled", plans)
	}
}

// alice deletes her request (and with it its thread): the pending plan is cancelled and the
// audit log says why.
func TestE2EMattermostDeletedRequestCancelsItsPlan(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-delete")
	b := startMMBot(t, s, ch, eostest.Options{})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, b, id, preview)

	if _, err := s.Alice.Client.DeletePost(context.Background(), req.Id); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		p, err := b.Store.Plan(context.Background(), id)
		if err == nil && p.State == store.PlanCancelled {
			if p.Cancellation == nil || p.Cancellation.Reason != "the request was deleted" {
				t.Fatalf("cancellation = %+v, want the request's deletion", p.Cancellation)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("plan %s still %v (%v) %s after its request was deleted", id, p.State, err, eostest.Timeout)
		}
		<-tick.C
	}
	b.Idle()
	entries, _ := b.Store.Audit(context.Background(), func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "cancel" })
	if len(entries) != 1 || entries[0].Text != "cancelled: the request was deleted" {
		t.Errorf("audit = %+v, want one cancel entry for the deletion", entries)
	}
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Errorf("the plan of a deleted request ran: %+v", runs)
	}
}
