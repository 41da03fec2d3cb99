package render

import (
	"fmt"
	"github.com/eosbot/eos/bot/policy"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	slackapi "github.com/slack-go/slack"
)

// The platforms' limits on one message, as their documentation gives them.
const (
	mattermostMaxRunes = 16383 // model.PostMessageMaxRunesV2
	discordMaxLength   = 2000  // UTF-16 code units
	slackMaxBlocks     = 50
	slackMaxBlockText  = 3000
)

// riskPolicy asks one approval in production, and two for a plan that loses data.
func riskPolicy() policy.Policy {
	return policy.Policy{Envs: map[string]policy.EnvPolicy{"production": {Approvers: []string{"bob", "dave", "group:sre"}, Approvals: 1,
		Risks: map[string]policy.RiskPolicy{policy.RiskDataLoss: {Approvals: 2}}}}}
}

// riskStates are riskyPlan's preview as posted and as the engine edits it while the approvals
// come in, or when it is rejected.
func riskStates() []namedDoc {
	vote := func(user string) store.Vote { return store.Vote{User: user, UserID: "u-" + user, At: at} }
	policy := riskPolicy()
	out := []namedDoc{}
	for _, s := range []struct {
		name   string
		change func(p *store.Plan)
	}{
		{"posted", func(*store.Plan) {}},
		{"one_of_two", func(p *store.Plan) { p.Approvals = []store.Vote{vote("bob")} }},
		{"approved", func(p *store.Plan) {
			p.State, p.Approvals = store.PlanApproved, []store.Vote{vote("bob"), vote("dave")}
		}},
		{"rejected", func(p *store.Plan) { p.State, p.Rejection = store.PlanRejected, &store.Vote{User: "dave"} }},
	} {
		p := riskyPlan()
		p.Needed = 2
		s.change(p)
		doc := Preview(p, judgedBy(p, policy), "")
		if s.name != "posted" {
			doc = EditedPreview(p, judgedBy(p, policy), "")
		}
		out = append(out, namedDoc{s.name, doc})
	}
	return out
}

type namedDoc struct {
	name string
	doc  adapters.Doc
}

// One preview with a replacement and what forces it, a data-loss warning, the rule it is
// judged by and its live status edits, as every platform shows it.
func TestRiskPreviewPlatformGolden(t *testing.T) {
	goldenPerPlatform(t, "preview_risk", riskStates())
}

// Every state of the risky preview names the replacement, what forces it, the data loss and
// the data-loss rule; only the status line changes.
func TestRiskPreviewStates(t *testing.T) {
	rule := `Needs 2 approvals from @bob, @dave or group:sre — not @alice (asked) · the "data-loss" rule of production, since this plan loses data · expires 14:32 UTC`
	status := map[string]string{
		"posted":     "React ✅ to approve, ❌ to reject · details: @eos plan 7f3a9c21 full",
		"one_of_two": "1 of 2: @bob ✅ · waiting for one more · React ✅ to approve",
		"approved":   "approved by @bob ✅ @dave ✅: running as run 7f3a9c21",
		"rejected":   "rejected by @dave ❌ · nothing changed",
	}
	for _, s := range riskStates() {
		text := s.doc.Plain()
		for _, want := range []string{
			"⚠ data loss: nextcloud eoslab_volume.data (200G) — replaced, forced by format",
			"± replaces nextcloud eoslab_server.main — forced by image",
			"\n" + rule + "\n" + status[s.name],
		} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the preview lacks %q:\n%s", s.name, want, text)
			}
		}
	}
}

// The preview is one message on every platform, so that an edit of its status line edits
// the message people react on, however many changes the plan has: the caps keep it short
// and the full list goes to the attachment.
func TestRiskPreviewFitsOneMessage(t *testing.T) {
	huge := riskyPlan()
	var changes []executor.Change
	for i := range 400 {
		changes = append(changes, executor.Change{Unit: "nextcloud", Action: executor.Replace,
			Address: fmt.Sprintf("eoslab_volume.data_%03d_%s", i, strings.Repeat("x", 40)),
			Detail:  strings.Repeat(`format "xfs" → "ext4", `, 10), Forces: "format", DataLoss: true, Size: "200G"})
	}
	huge.Plan.Layers[1].Changes = changes
	docs := append(riskStates(), namedDoc{"400 replacements", Preview(huge, judgedBy(huge, riskPolicy()), "")})
	for _, s := range docs {
		if n := utf8.RuneCountInString(mattermost.Render(s.doc)); n > mattermostMaxRunes {
			t.Errorf("%s: %d runes on Mattermost, more than one post holds (%d)", s.name, n, mattermostMaxRunes)
		}
		if n := len(utf16.Encode([]rune(discord.Render(s.doc)))); n > discordMaxLength {
			t.Errorf("%s: %d characters on Discord, more than one message holds (%d)", s.name, n, discordMaxLength)
		}
		msgs := slack.Render(s.doc)
		if s.doc.Attachment == nil && len(msgs) != 1 {
			t.Errorf("%s: %d Slack messages, want the preview in one", s.name, len(msgs))
		}
		for i, m := range msgs {
			checkSlackMessage(t, fmt.Sprintf("%s, Slack message %d", s.name, i+1), m)
		}
		if last := msgs[0].Blocks[len(msgs[0].Blocks)-1]; s.doc.Attachment == nil && !strings.Contains(slackBlockText(last), "Needs 2 approvals") {
			t.Errorf("%s: the Slack post does not end with the rule and status: %q", s.name, slackBlockText(last))
		}
	}
	if huge := docs[len(docs)-1].doc; huge.Attachment == nil || strings.Count(huge.Attachment.Text, "\n")+1 != 400+1 {
		t.Errorf("the attachment should list all 401 changes, has %v", huge.Attachment)
	}
}

// checkSlackMessage fails if m breaks Slack's limits on blocks.
func checkSlackMessage(t *testing.T, name string, m slack.Message) {
	t.Helper()
	if len(m.Blocks) > slackMaxBlocks {
		t.Errorf("%s: %d blocks, more than %d", name, len(m.Blocks), slackMaxBlocks)
	}
	for j, b := range m.Blocks {
		if n := utf8.RuneCountInString(slackBlockText(b)); n > slackMaxBlockText {
			t.Errorf("%s: block %d has %d characters, more than %d", name, j+1, n, slackMaxBlockText)
		}
	}
}

// slackBlockText is the text a Slack block shows; a context block's elements are checked
// together, which is stricter than Slack.
func slackBlockText(b slackapi.Block) string {
	switch v := b.(type) {
	case *slackapi.HeaderBlock:
		return v.Text.Text
	case *slackapi.SectionBlock:
		return v.Text.Text
	case *slackapi.ContextBlock:
		var parts []string
		for _, e := range v.ContextElements.Elements {
			if t, ok := e.(*slackapi.TextBlockObject); ok {
				parts = append(parts, t.Text)
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}
