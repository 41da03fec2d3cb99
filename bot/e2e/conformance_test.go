package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
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
			if eostest.ContainsAll(q.Text, texts...) {
				found = q
				return true
			}
		}
		return false
	})
	return found
}

// ask posts a request as user and waits for its preview; it returns the thread, the preview
// and the plan's id.
func askOn(t *testing.T, p platform, user, text string) (root string, preview post, id string) {
	t.Helper()
	root = p.say(t, user, "", text)
	preview = waitPost(t, p, root, "Plan ", "to approve")
	m := eostest.PlanIDRe.FindStringSubmatch(preview.Text)
	if m == nil {
		t.Fatalf("the preview names no plan:\n%s", preview.Text)
	}
	return root, preview, m[1]
}
