package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// The conversations of conversation_test.go, held on a real Mattermost server with real
// people: alice asks, bob approves, carol may not. Each test has a channel of its own. Every
// test calls mmtest.Real after t.Parallel (see mmtest.Real).

func TestE2EMattermostCreateApproveRun(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-create")
	b := startMMBot(t, s, ch, eostest.Options{})

	req, preview, id := ask(t, s, ch, s.Alice, "@eos create nextcloud --sso")
	if preview.RootId != req.Id {
		t.Errorf("preview root = %q, want alice's request %q", preview.RootId, req.Id)
	}
	for _, want := range []string{"Plan " + id + " · create nextcloud --sso in local · asked by @alice", "Also brings in authentik (because of --sso)"} {
		if !strings.Contains(preview.Message, want) {
			t.Errorf("preview lacks %q:\n%s", want, preview.Message)
		}
	}
	s.WaitReaction(t, req.Id, func(r *model.Reaction) bool { return r.UserId == s.Bot.Id && r.EmojiName == "eyes" })

	s.Bob.React(t, preview.Id, "+1")
	done := botSays(t, s, req.Id, "Run "+id+" · done in", "Terraform ✅ +7")
	if done.EditAt == 0 {
		t.Errorf("the progress post was never edited; it should be one post edited in place:\n%s", done.Message)
	}
	if n := botPosts(t, s, req.Id, "Run "+id); n != 1 {
		t.Errorf("%d posts about run %s in the thread, want one edited in place", n, id)
	}
	b.Idle()
	r, err := b.Store.Run(context.Background(), id)
	if err != nil || r.State != store.RunDone || !slices.Equal(r.Approvers, []string{"bob"}) {
		t.Fatalf("run %s = %+v, %v; want done, approved by bob", id, r, err)
	}
	for _, f := range []string{"server/proxy-nextcloud-local.json", "volume/data-nextcloud-local.json", "server/proxy-authentik-local.json"} {
		if _, err := os.Stat(filepath.Join(b.Cloud(), f)); err != nil {
			t.Errorf("simulated cloud lacks %s: %v", f, err)
		}
	}
	got := eostest.StateResources(t, filepath.Join(b.DataDir, "terraform", "local", "nextcloud", "terraform.tfstate"))
	if !slices.Contains(got, "eoslab_server.main") || !slices.Contains(got, "eoslab_volume.data") {
		t.Errorf("nextcloud's terraform state lists %v, want eoslab_server.main and eoslab_volume.data", got)
	}
}

func TestE2EMattermostMistakeGetsASuggestion(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-mistake")
	b := startMMBot(t, s, ch, eostest.Options{})

	req := s.Alice.Say(t, ch.Id, "", "@eos craete grafana")
	got := botSays(t, s, req.Id, `unknown command "craete"`)
	if !strings.Contains(got.Message, `did you mean "create"?`) || got.RootId != req.Id {
		t.Errorf("answer in thread %q:\n%s\nwant a suggestion in the request's thread %q", got.RootId, got.Message, req.Id)
	}
	if plans, _ := b.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); len(plans) != 0 {
		t.Errorf("a mistake created %d plans", len(plans))
	}
}

func TestE2EMattermostNonApproverChangesNothing(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy")
	policy := bot.Policy{Envs: map[string]bot.EnvPolicy{"production": {Approvers: []string{"bob"}, Approvals: 1}}}
	b := startMMBot(t, s, ch, eostest.Options{Policy: policy})

	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana in production")
	if !strings.Contains(preview.Message, "Needs 1 approval from @bob") {
		t.Errorf("preview does not state the policy:\n%s", preview.Message)
	}
	s.Carol.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "@carol can't approve production plans (approvers: @bob)", "Nothing changed")
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("carol's approval started %d runs", len(runs))
	}
	if p, err := b.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanPending || len(p.Approvals) != 0 {
		t.Fatalf("plan after carol's +1 = %+v, %v; want pending without approvals", p, err)
	}
	if _, err := os.Stat(filepath.Join(b.Cloud(), "server", "proxy-grafana-production.json")); !os.IsNotExist(err) {
		t.Fatalf("the simulated cloud has grafana's server after carol's +1 (stat: %v)", err)
	}

	// The plan was waiting for the right person all along.
	s.Bob.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	b.Idle()
	if r, err := b.Store.Run(context.Background(), id); err != nil || !slices.Equal(r.Approvers, []string{"bob"}) {
		t.Fatalf("run %s = %+v, %v; want approved by bob alone", id, r, err)
	}
}

// The server goes away between the preview and the approval; nobody restarts the bot, and the
// conversation goes on where it stopped.
func TestE2EMattermostServerRestartMidConversation(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-server-restart")
	b := startMMBot(t, s, ch, eostest.Options{})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")

	s.Restart(t)
	// alice asks right away, whether or not the bot is back yet; it answers once it is.
	s.Alice.Say(t, ch.Id, req.Id, "@eos plan "+id)
	botSays(t, s, req.Id, "Plan "+id+" · create grafana in local · pending")
	s.Bob.React(t, preview.Id, "+1")
	done := botSays(t, s, req.Id, "Run "+id+" · done in")
	if done.RootId != req.Id || done.EditAt == 0 {
		t.Errorf("progress post (root %q, edited at %d), want one post edited in place in thread %q", done.RootId, done.EditAt, req.Id)
	}
	b.Idle()
	if _, err := os.Stat(filepath.Join(b.Cloud(), "server", "proxy-grafana-local.json")); err != nil {
		t.Errorf("grafana's server is not in the simulated cloud: %v", err)
	}
}

// bob approves as soon as the server is back, while the bot is still waiting to reconnect: the
// approval must count all the same. The adapter's catch-up after a reconnection delivers the
// reactions added while its websocket was down (adapters/mattermost/catchup.go), as it does
// for an approval given between a bot's start and its first connection.
func TestE2EMattermostApprovalWhileReconnecting(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-reconnecting")
	// The bot waits 2.5 to 5 s between attempts: bob's reaction lands before it is back.
	b := startMMBot(t, s, ch, eostest.Options{}, func(c *mattermost.Config) { c.MinBackoff, c.MaxBackoff = 5*time.Second, 5*time.Second })
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")

	s.Restart(t)
	s.Bob.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	b.Idle()
	if r, err := b.Store.Run(context.Background(), id); err != nil || r.State != store.RunDone {
		t.Fatalf("run %s = %+v, %v; want done", id, r, err)
	}
}

func TestE2EMattermostBotRestart(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-bot-restart")
	dir := t.TempDir()
	first := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, first, id, preview)
	first.Stop()

	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	// The new process knows the plan from its store. Its answer also tells that it is
	// connected: a reaction given before that is not seen (TestE2EMattermostApprovalWhileReconnecting).
	s.Alice.Say(t, ch.Id, req.Id, "@eos plan "+id)
	botSays(t, s, req.Id, "Plan "+id+" · create grafana in local · pending")
	s.Bob.React(t, preview.Id, "+1")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	second.Idle()
	if r, err := second.Store.Run(context.Background(), id); err != nil || r.State != store.RunDone {
		t.Fatalf("run %s after the restart = %+v, %v", id, r, err)
	}
}

// bob approves while Eos is down: the new process finds the approval on the preview.
func TestE2EMattermostApprovalWhileBotDown(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-bot-down")
	dir := t.TempDir()
	first := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	waitPreviewRecorded(t, first, id, preview)
	first.Stop()

	s.Bob.React(t, preview.Id, "+1")
	second := startMMBot(t, s, ch, eostest.Options{DataDir: dir})
	botSays(t, s, req.Id, "Run "+id+" · done in")
	second.Idle()
	if r, err := second.Store.Run(context.Background(), id); err != nil || r.State != store.RunDone || !slices.Equal(r.Approvers, []string{"bob"}) {
		t.Fatalf("run %s after the restart = %+v, %v; want done, approved by bob", id, r, err)
	}
}
