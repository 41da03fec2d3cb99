package bot_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// The conformance suite: the same conversation, through the real engine, on every adapter.
// Each platform has its file, conformance_<platform>_test.go: the console (the harness's own),
// Mattermost (a real server, skipped without EOS_TEST_MATTERMOST_URL, failing in CI), Slack and
// Discord (the small fakes of slackfake and discordfake). The cast: alice asks, bob approves, carol
// may not approve production plans.

// platform is one chat platform with the engine serving it.
type platform interface {
	// start runs a bot with opts on this platform; the bot is stopped when the test ends.
	start(t *testing.T, opts eostest.Options) *eostest.Harness
	// say posts text ("@eos …") as user, in thread when it is set, and returns the id of the
	// thread where the bot answers.
	say(t *testing.T, user, thread, text string) (root string)
	// react adds user's emoji (a canonical name: "+1", "x") to post, as the platform sends it.
	react(t *testing.T, user, post, emoji string)
	// thread is every post of the bot in root's thread, oldest first.
	thread(t *testing.T, root string) []post
	// limit is the most characters one message (Slack: one section) may hold; 0 for none.
	limit() int
	// withinLimit reports why p is too big for the platform, or nil.
	withinLimit(p post) error
	// dropConnection breaks the adapter's connection as a network failure would and keeps it
	// down while whileDown (when not nil) runs; then the adapter may reconnect. It reports
	// false, without calling whileDown, when the platform has no connection.
	dropConnection(t *testing.T, whileDown func()) bool
	// posts is every post of the bot people can still see in the channel, in threads or at
	// channel level (Root tells), oldest first.
	posts(t *testing.T) []post
	// gone reports whether a person's post id is no longer there for people to see.
	gone(t *testing.T, id string) bool
	// deletes reports whether the bot may delete people's posts, as the suite sets it up.
	deletes() bool
}

// post is one post of the bot, as people see it now.
type post struct {
	ID     string
	Text   string // the text, block texts or content, with any attached file's text after it
	Edited bool
	// Root is the thread's root, empty for a post at channel level (filled in by posts).
	Root string
	// raw is the platform's own form of the post, for withinLimit.
	raw any
}

var conformancePlatforms = []struct {
	name string
	new  func() platform
}{
	{"console", func() platform { return &consolePlatform{} }},
	{"mattermost", func() platform { return &mattermostPlatform{} }},
	{"slack", func() platform { return &slackPlatform{} }},
	{"discord", func() platform { return &discordPlatform{} }},
}

// conformancePolicy: production plans need bob; elsewhere anyone but the requester approves.
var conformancePolicy = bot.Policy{
	Default: bot.EnvPolicy{Approvals: 1, TTL: 30 * time.Minute},
	Envs:    map[string]bot.EnvPolicy{"production": {Approvers: []string{"bob"}, Approvals: 1, TTL: 30 * time.Minute}},
}

// forEachPlatform runs scenario on every platform, each with a bot of its own.
func forEachPlatform(t *testing.T, scenario func(t *testing.T, p platform, h *eostest.Harness)) {
	for _, pl := range conformancePlatforms {
		t.Run(pl.name, func(t *testing.T) {
			t.Parallel()
			p := pl.new()
			h := p.start(t, eostest.Options{Policy: conformancePolicy, CatalogDirs: []string{bulkCatalog(t)}})
			scenario(t, p, h)
		})
	}
}

// waitThread waits until cond holds for the bot's posts in root's thread and returns them.
func waitThread(t *testing.T, p platform, root string, what string, cond func([]post) bool) []post {
	t.Helper()
	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		posts := p.thread(t, root)
		if cond(posts) {
			return posts
		}
		if time.Now().After(deadline) {
			var seen strings.Builder
			for _, q := range posts {
				fmt.Fprintf(&seen, "--- %s (edited %v)\n%s\n", q.ID, q.Edited, q.Text)
			}
			t.Fatalf("no %s in thread %s within %s; the bot's posts there:\n%s", what, root, eostest.Timeout, seen.String())
		}
		<-tick.C
	}
}

// waitPost waits for a post of the bot in root's thread containing every one of texts.
func waitPost(t *testing.T, p platform, root string, texts ...string) post {
	t.Helper()
	var found post
	waitThread(t, p, root, fmt.Sprintf("post saying %q", texts), func(posts []post) bool {
		for _, q := range posts {
			if containsAll(q.Text, texts...) {
				found = q
				return true
			}
		}
		return false
	})
	return found
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// ask posts a request as user and waits for its preview; it returns the thread, the preview
// and the plan's id.
func askOn(t *testing.T, p platform, user, text string) (root string, preview post, id string) {
	t.Helper()
	root = p.say(t, user, "", text)
	preview = waitPost(t, p, root, "Plan ", "to approve")
	m := planIDRe.FindStringSubmatch(preview.Text)
	if m == nil {
		t.Fatalf("the preview names no plan:\n%s", preview.Text)
	}
	return root, preview, m[1]
}

func TestConformanceApproveRunsAndEditsProgress(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana in production")
		if !containsAll(preview.Text, "create grafana in production", "@alice", "@bob") {
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
		if r, err := h.Store.Run(id); err != nil || r.State != store.RunDone {
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
		if runs, _ := h.Store.Runs(nil); len(runs) != 0 {
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
		if runs, _ := h.Store.Runs(nil); len(runs) != 0 {
			t.Fatalf("carol's approval started %d runs", len(runs))
		}
		if pl, err := h.Store.Plan(id); err != nil || pl.State != store.PlanPending || len(pl.Approvals) != 0 {
			t.Fatalf("plan after carol's +1 = %+v, %v; want pending without approvals", pl, err)
		}
	})
}

// bulkRecords is how many DNS records the bulk blueprint plans: its full plan is longer than
// any platform's limit (Mattermost's 16,383 characters included).
const bulkRecords = 400

func TestConformanceOverlongPlanStaysWithinLimits(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, _, id := askOn(t, p, "alice", "@eos create bulk")
		full := p.say(t, "alice", root, "@eos plan "+id+" full")
		row := func(i int) string { return fmt.Sprintf("bulk eoslab_dns_record.r[%d]", i) }
		posts := waitThread(t, p, full, "full plan with every row", func(posts []post) bool {
			return strings.Contains(joinPosts(posts), row(bulkRecords-1))
		})
		joined := joinPosts(posts)
		t.Logf("the full plan: %d characters in %d posts", utf8.RuneCountInString(joined), len(posts))
		if p.limit() > 0 && utf8.RuneCountInString(joined) <= p.limit() {
			t.Fatalf("the full plan has %d characters, within the limit of %d: this test tests nothing", utf8.RuneCountInString(joined), p.limit())
		}
		for _, q := range p.thread(t, root) {
			if err := p.withinLimit(q); err != nil {
				t.Errorf("post %s is beyond the platform's limit: %v", q.ID, err)
			}
		}
		for _, q := range posts {
			if err := p.withinLimit(q); err != nil {
				t.Errorf("post %s is beyond the platform's limit: %v", q.ID, err)
			}
		}
		// A row cut between two posts would leave its address without its layer and action.
		lines := strings.Split(joined, "\n")
		for i := range bulkRecords {
			if !anyLine(lines, "Terraform", "create", row(i)) {
				t.Errorf("no whole row for %s (layer, action and address on one line)", row(i))
			}
		}
	})
}

func joinPosts(posts []post) string {
	var b strings.Builder
	for _, q := range posts {
		b.WriteString(q.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func anyLine(lines []string, subs ...string) bool {
	for _, l := range lines {
		if containsAll(l, subs...) {
			return true
		}
	}
	return false
}

// The connection drops mid-conversation: /healthz says so while it is down, the conversation
// goes on once it is back, and /healthz says connected again.
func TestConformanceReconnectionKeepsTheConversation(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana")
		// The request came through the connection, where there is one: it is up.
		waitHealth(t, h, "healthy", func(hl bot.Health) bool { return hl.OK })
		down := func() {
			got := waitHealth(t, h, "an adapter disconnected", func(hl bot.Health) bool {
				return !hl.OK && slices.ContainsFunc(slices.Collect(maps.Values(hl.Adapters)), func(s string) bool {
					return strings.HasPrefix(s, "disconnected: ")
				})
			})
			t.Logf("health while the connection is down: %v", got.Adapters)
		}
		if !p.dropConnection(t, down) {
			t.Skip("this platform has no connection to drop")
		}
		// alice asks at once, whether or not the adapter is back yet; it answers once it is.
		p.say(t, "alice", root, "@eos plan "+id)
		waitPost(t, p, root, "Plan "+id, "pending")
		p.react(t, "bob", preview.ID, "+1")
		waitPost(t, p, root, "Run "+id, "done in")
		h.Idle()
		if r, err := h.Store.Run(id); err != nil || r.State != store.RunDone {
			t.Fatalf("run %s = %+v, %v; want done", id, r, err)
		}
		waitHealth(t, h, "connected again", connectedHealth)
	})
}

// connectedHealth holds when the engine is healthy and an adapter reports its connection up
// (the platform's, beside the console, which has none and is "running").
func connectedHealth(hl bot.Health) bool {
	return hl.OK && slices.Contains(slices.Collect(maps.Values(hl.Adapters)), "connected")
}

// waitHealth waits until the engine's Health satisfies cond and returns it.
func waitHealth(t *testing.T, h *eostest.Harness, what string, cond func(bot.Health) bool) bot.Health {
	t.Helper()
	deadline := time.Now().Add(eostest.Timeout)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		hl := h.Engine.Health(context.Background())
		if cond(hl) {
			return hl
		}
		if time.Now().After(deadline) {
			t.Fatalf("health not %s within %s: ok=%v store=%q adapters=%v", what, eostest.Timeout, hl.OK, hl.Store, hl.Adapters)
		}
		<-tick.C
	}
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
		if plans, _ := h.Store.Plans(func(*store.Plan) bool { return true }); len(plans) != 0 {
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
			if containsAll(q.Text, texts...) {
				return q
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no post saying %q in the channel within %s; the bot's posts:\n%s", texts, eostest.Timeout, joinPosts(posts))
		}
		<-tick.C
	}
}

// bob approves while the connection is down: the approval must count all the same.
func TestConformanceApprovalAcrossADrop(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, preview, id := askOn(t, p, "alice", "@eos create grafana")
		if !p.dropConnection(t, nil) {
			t.Skip("this platform has no connection to drop")
		}
		p.react(t, "bob", preview.ID, "+1")
		waitPost(t, p, root, "Run "+id, "done in")
		h.Idle()
		if r, err := h.Store.Run(id); err != nil || r.State != store.RunDone {
			t.Fatalf("run %s = %+v, %v; want done", id, r, err)
		}
	})
}

// bulkCatalog writes an operator catalog folder with the blueprint "bulk": bulkRecords DNS
// records in one Terraform module, and returns the folder.
func bulkCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"bulk/manifest.hcl": `service "bulk" {
  description = "many DNS records, for the conformance suite's over-long plan"

  terraform {
    module = "terraform"
    variables = {
      name = service.name
    }
  }
}
`,
		"bulk/terraform/main.tf": fmt.Sprintf(`terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

variable "name" {
  type        = string
  description = "Name of the service."
}

resource "eoslab_dns_record" "r" {
  count = %d
  zone  = "example.org"
  name  = "${var.name}-${count.index}"
  type  = "A"
  value = "192.0.2.1"
  ttl   = 300
}
`, bulkRecords),
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
