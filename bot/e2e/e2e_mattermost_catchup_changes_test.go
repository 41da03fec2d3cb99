package e2e_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// startCutMMBot starts Eos on ch of s talking to the server through a proxy the test can cut.
func startCutMMBot(t *testing.T, s *mmtest.Server, ch *model.Channel) (*mmBot, *cutProxy) {
	t.Helper()
	p := newCutProxy(t, s.URL)
	b := startMMBot(t, s, ch, eostest.Options{}, func(c *mattermost.Config) { c.URL = p.URL() })
	return b, p
}

// caughtUpChanges matches the adapter's log line of a catch-up that found edits or deletions.
var caughtUpChanges = regexp.MustCompile(`caught up after reconnecting.*changes=[1-9]`)

// alice edits her request while the bot is disconnected: once it is back, its catch-up hears
// of the edit, the pending plan is cancelled, the thread is told once to ask again, and bob's
// approval afterwards starts nothing.
func TestE2EMattermostRequestEditedWhileDisconnected(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-gap-edit")
	b, proxy := startCutMMBot(t, s, ch)
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, b, id, preview)

	proxy.Cut()
	text := "@eos create grafana --port 4000"
	if _, _, err := s.Alice.Client.PatchPost(context.Background(), req.Id, &model.PostPatch{Message: &text}); err != nil {
		t.Fatal(err)
	}
	proxy.Restore()

	botSays(t, s, req.Id, "@alice, your request was edited after the preview: ask again", "Plan "+id+" was for the request as it read before")
	s.WaitPost(t, req.Id, func(p *model.Post) bool {
		return p.Id == preview.Id && strings.Contains(p.Message, "cancelled: the request was edited after the preview")
	})
	s.Bob.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Plan "+id+" is cancelled: nothing started.")
	b.Idle()
	if n := botPosts(t, s, req.Id, "your request was edited after the preview"); n != 1 {
		t.Errorf("%d answers to the edit in the thread, want one", n)
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanCancelled || p.Cancellation == nil || p.Cancellation.Reason != "the request was edited after the preview" {
		t.Fatalf("plan %s = %+v, %v; want cancelled because of the edit", id, p, err)
	}
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Errorf("the plan of an edited request ran: %+v", runs)
	}
	if !caughtUpChanges.MatchString(b.AdapterLog.String()) {
		t.Errorf("no catch-up found the edit; adapter log:\n%s", b.AdapterLog.String())
	}
}

// alice deletes her request (and its thread) while the bot is disconnected: once it is back,
// the pending plan is cancelled because of the deletion, once, and nothing runs.
func TestE2EMattermostRequestDeletedWhileDisconnected(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-gap-delete")
	b, proxy := startCutMMBot(t, s, ch)
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, b, id, preview)

	proxy.Cut()
	ctx := context.Background()
	if _, err := s.Alice.Client.DeletePost(ctx, req.Id); err != nil {
		t.Fatal(err)
	}
	proxy.Restore()

	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		p, err := b.Store.Plan(ctx, id)
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
	// The preview went with the thread: the server refuses a reaction on it. Should a server
	// accept one, the bot must answer that the plan is cancelled.
	if _, _, err := s.Bob.Client.SaveReaction(ctx, &model.Reaction{UserId: s.Bob.User.Id, PostId: preview.Id, EmojiName: "+1"}); err == nil {
		botSays(t, s, req.Id, "Plan "+id+" is cancelled: nothing started.")
	}
	b.Idle()
	entries, _ := b.Store.Audit(ctx, func(e *store.Entry) bool { return e.PlanID == id && e.Kind == "cancel" })
	if len(entries) != 1 || entries[0].Text != "cancelled: the request was deleted" {
		t.Errorf("audit = %+v, want one cancel entry for the deletion", entries)
	}
	if runs, _ := b.Store.Runs(ctx, nil); len(runs) != 0 {
		t.Errorf("the plan of a deleted request ran: %+v", runs)
	}
	if !caughtUpChanges.MatchString(b.AdapterLog.String()) {
		t.Errorf("no catch-up found the deletion; adapter log:\n%s", b.AdapterLog.String())
	}
}
