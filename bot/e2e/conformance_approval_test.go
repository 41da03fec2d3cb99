package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

func TestConformanceApproveRunsAndEditsProgress(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana in production")
		if !eostest.ContainsAll(preview.Text, "create grafana in production", "@alice", "@bob") {
			t.Errorf("the preview does not say what, who asked and who approves:\n%s", preview.Text)
		}
		p.react(t, "bob", preview.ID, "+1")
		done := waitPost(t, p, root, "Run "+id, "done in")
		if !done.Edited {
			t.Errorf("the progress post was never edited; it should be one post edited in place:\n%s", done.Text)
		}
		runs := 0
		for _, q := range p.thread(t, root) {
			if strings.Contains(q.Text, "Run "+id) {
				runs++
			}
		}
		if runs != 1 {
			t.Errorf("%d posts about run %s in the thread, want one edited in place", runs, id)
		}
		h.Idle()
		if r, err := h.Store.Run(context.Background(), id); err != nil || r.State != store.RunDone {
			t.Fatalf("run %s = %+v, %v; want done", id, r, err)
		}
		if _, err := os.Stat(filepath.Join(h.Cloud(), "server", "proxy-grafana-production.json")); err != nil {
			t.Errorf("grafana's server is not in the simulated cloud: %v", err)
		}
	})
}

func TestConformanceRejectionChangesNothing(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana")
		p.react(t, "bob", preview.ID, "x")
		waitPost(t, p, root, "Plan "+id, "rejected by @bob ❌ · nothing changed")
		h.Idle()
		if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
			t.Fatalf("a rejected plan ran: %+v", runs)
		}
	})
}

func TestConformanceUnauthorisedReactionRunsNothing(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana in production")
		p.react(t, "carol", preview.ID, "+1")
		waitPost(t, p, root, "@carol can't approve production plans (approvers: @bob)", "Nothing changed")
		h.Idle()
		if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
			t.Fatalf("carol's approval started %d runs", len(runs))
		}
		if pl, err := h.Store.Plan(context.Background(), id); err != nil || pl.State != store.PlanPending || len(pl.Approvals) != 0 {
			t.Fatalf("plan after carol's +1 = %+v, %v; want pending without approvals", pl, err)
		}
	})
}

// alice types a secret in her request: the bot refuses it, never repeats it, and takes the
// message down where the platform lets it (answering at channel level, since the thread went
// with the message), or asks her to.
func TestConformanceTypedSecret(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root := p.say(t, "alice", "", "@eos create grafana --admin-password hunter2")
		answer := waitAnswer(t, p, "Secrets are never typed in chat")
		if p.deletes() {
			if !strings.Contains(answer.Text, "I deleted your message") || answer.Root != "" || !strings.HasPrefix(answer.Text, "@alice ") {
				t.Errorf("the answer should say the message was deleted, at channel level, naming alice; in thread %q:\n%s", answer.Root, answer.Text)
			}
			if !p.gone(t, root) {
				t.Errorf("alice's message %s is still there", root)
			}
		} else {
			if !strings.Contains(answer.Text, "please delete yours") || answer.Root != root {
				t.Errorf("the answer should ask alice to delete her message, in its thread %q; in thread %q:\n%s", root, answer.Root, answer.Text)
			}
			if p.gone(t, root) {
				t.Errorf("alice's message %s is gone, though the bot may not delete it", root)
			}
		}
		h.Idle()
		for _, q := range p.posts(t) {
			if strings.Contains(q.Text, "hunter2") {
				t.Errorf("post %s of the bot shows the secret:\n%s", q.ID, q.Text)
			}
		}
		if plans, _ := h.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); len(plans) != 0 {
			t.Errorf("a request with a typed secret made %d plans", len(plans))
		}
	})
}

// waitAnswer waits for a post of the bot anywhere in the channel containing every one of texts.
func waitAnswer(t *testing.T, p platform, texts ...string) post {
	t.Helper()
	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		posts := p.posts(t)
		for _, q := range posts {
			if eostest.ContainsAll(q.Text, texts...) {
				return q
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no post saying %q in the channel within %s; the bot's posts:\n%s", texts, eostest.Timeout, joinPosts(posts))
		}
		<-tick.C
	}
}
