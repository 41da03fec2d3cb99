package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/mattermost"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/executor"
)

// The full plan names every attribute a change changes, where the preview's detail stops
// after three, and keeps sensitive values masked.
func TestFullPlanListsEveryAttribute(t *testing.T) {
	p := riskyPlan()
	for name, text := range map[string]string{
		"full plan":  FullPlan(p).Plain(),
		"attachment": fullChanges(executor.Plan{Layers: append(p.Plan.Layers, p.Plan.Layers[1])}),
	} {
		for _, attr := range strings.Split(p.Plan.Layers[1].Changes[1].Attrs, "\n") {
			if !strings.Contains(text, attr) {
				t.Errorf("the %s lacks %q:\n%s", name, attr, text)
			}
		}
		if strings.Contains(text, "and 2 more") || !strings.Contains(text, "root_password (sensitive) → (sensitive)") {
			t.Errorf("the %s cuts the attributes or shows a sensitive value:\n%s", name, text)
		}
	}
}

// A full plan far longer than a message is delivered whole on every platform: Slack's
// messages (the post and its thread) each keep within Slack's limits and hold every
// attribute between them; Mattermost and Discord attach the whole rendering as a file when
// it does not fit their messages, so it must hold every attribute too.
func TestLongFullPlanIsNeverCut(t *testing.T) {
	p := riskyPlan()
	var changes []executor.Change
	var attrs []string
	for i := range 300 {
		var lines []string
		for _, a := range []string{"cpus", "disk", "image", "labels", "memory", "password"} {
			lines = append(lines, fmt.Sprintf("%s_%03d 1 → 2", a, i))
		}
		attrs = append(attrs, lines...)
		changes = append(changes, executor.Change{Unit: "web", Action: executor.Update, Address: fmt.Sprintf("eoslab_server.s%03d", i),
			Detail: strings.Join(lines[:3], ", ") + ", and 3 more", Attrs: strings.Join(lines, "\n")})
	}
	p.Plan.Layers[1].Changes = changes
	doc := FullPlan(p)

	msgs := slack.Render(doc)
	var joined strings.Builder
	for i, m := range msgs {
		checkSlackMessage(t, fmt.Sprintf("Slack message %d of %d", i+1, len(msgs)), m)
		for _, b := range m.Blocks {
			joined.WriteString(slackBlockText(b) + "\n")
		}
	}
	if len(msgs) < 2 {
		t.Errorf("the full plan fits one Slack message (%d blocks): this test tests nothing", len(msgs[0].Blocks))
	}
	texts := map[string]string{"slack": joined.String(), "mattermost": mattermost.Render(doc), "discord": discord.Render(doc)}
	if n := len([]rune(texts["mattermost"])); n <= mattermostMaxRunes {
		t.Errorf("the full plan has %d runes on Mattermost, within one post: this test tests nothing", n)
	}
	for platform, text := range texts {
		for _, a := range attrs {
			if !strings.Contains(text, a) {
				t.Errorf("%s: the full plan lacks %q", platform, a)
				break
			}
		}
		if strings.Contains(text, "and 3 more") {
			t.Errorf("%s: the full plan says \"and 3 more\"", platform)
		}
	}
}
