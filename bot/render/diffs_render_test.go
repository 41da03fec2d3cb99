package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord"
	"github.com/eosbot/eos/adapters/slack"
	"github.com/eosbot/eos/executor"
)

// saltDiff is a file's diff as the layer gives it (masked), of n added lines.
func saltDiff(n int) string {
	lines := []string{"--- ", "+++ ", fmt.Sprintf("@@ -1,2 +1,%d @@", n), " # managed by Eos", "-<secret masked>"}
	for i := range n {
		lines = append(lines, fmt.Sprintf("+line=%02d", i))
	}
	return strings.Join(lines, "\n")
}

func saltDiffChange(n int) executor.Change {
	return executor.Change{Unit: "nextcloud", Action: executor.Update, Address: "node1: file.managed nextcloud-config",
		Detail: fmt.Sprintf("content +%d −1 lines", n), Diff: saltDiff(n)}
}

// `plan ID full` shows a file's diff under the table, cut to diffPostLines lines with the
// count of the rest, and attaches every diff whole.
func TestFullPlanShowsAFilesDiffCutWithTheRestAttached(t *testing.T) {
	p := riskyPlan()
	p.Plan.Layers[0] = executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanChanges, Changes: []executor.Change{saltDiffChange(50)}}
	doc := FullPlan(p)
	text := doc.Plain()
	if !strings.Contains(text, "Diff of nextcloud node1: file.managed nextcloud-config:") || !strings.Contains(text, "  -<secret masked>\n  +line=00") {
		t.Errorf("the full plan lacks the diff:\n%s", text)
	}
	shown := diffPostLines - 5 // the headers, the context and the removed line come first
	if !strings.Contains(text, fmt.Sprintf("+line=%02d", shown-1)) || strings.Contains(text, fmt.Sprintf("+line=%02d", shown)) {
		t.Errorf("the full plan does not cut the diff after %d lines:\n%s", diffPostLines, text)
	}
	if want := fmt.Sprintf("… %d more lines in the attached plan-%s.diff", 55-diffPostLines, p.ID); !strings.Contains(text, want) {
		t.Errorf("the full plan lacks %q:\n%s", want, text)
	}
	if doc.Attachment == nil || doc.Attachment.Name != "plan-"+p.ID+".diff" || !strings.Contains(doc.Attachment.Text, saltDiff(50)) {
		t.Fatalf("the attachment %+v does not hold the whole diff", doc.Attachment)
	}
	// Within Discord's 2,000 characters and Slack's block limits: the diff is no reason to split.
	for i, m := range slack.Render(doc) {
		checkSlackMessage(t, fmt.Sprintf("Slack message %d", i+1), m)
	}
	if n := len([]rune(discord.Render(doc))); n > 4000 {
		t.Errorf("the full plan is %d runes on Discord", n)
	}

	p.Plan.Layers[0].Changes = []executor.Change{saltDiffChange(3)}
	doc = FullPlan(p)
	if doc.Attachment != nil || !slices.Contains(doc.Blocks, adapters.Block(adapters.Code{Text: saltDiff(3)})) {
		t.Errorf("a short diff is not shown whole, or attached: %+v\n%s", doc.Attachment, doc.Plain())
	}
}

// A line longer than a post should hold is shortened in the post and whole in the attachment.
func TestALongDiffLineIsShortenedAndAttachedWhole(t *testing.T) {
	long := "+" + strings.Repeat("x", 400)
	c := saltDiffChange(1)
	c.Diff += "\n" + long
	blocks, whole := diffBlocks([]layerChange{{executor.Salt, c}}, "d.diff")
	var text strings.Builder
	for _, b := range blocks {
		text.WriteString(fmt.Sprint(b))
	}
	if strings.Contains(text.String(), long) || !strings.Contains(text.String(), "Long lines shortened (…): the attached d.diff has them whole") {
		t.Errorf("the post shows the long line whole or does not say it shortened it:\n%s", text.String())
	}
	if whole == nil || !strings.Contains(whole.Text, long) {
		t.Errorf("the attachment lacks the long line whole: %+v", whole)
	}
}

// A Salt drift reply shows the drifted file's diff (as the layer masked it), cut, with the
// rest attached.
func TestSaltDriftReplyShowsTheDiff(t *testing.T) {
	r := ServiceDrift{Service: "nextcloud", Env: "local", Status: executor.DriftDrifted, Layers: []executor.LayerDrift{
		{Layer: executor.Salt, Status: executor.DriftDrifted, Changes: []executor.Change{saltDiffChange(30)}}}}
	doc := ServiceDriftDoc(r)
	text := doc.Plain()
	if !strings.Contains(text, "Salt · node1: file.managed nextcloud-config content +30 −1 lines") ||
		!strings.Contains(text, "   # managed by Eos\n  -<secret masked>\n  +line=00") {
		t.Errorf("the drift reply lacks the change or its diff:\n%s", text)
	}
	if want := fmt.Sprintf("… %d more lines in the attached drift-nextcloud-local.diff", 35-diffPostLines); !strings.Contains(text, want) {
		t.Errorf("the drift reply lacks %q:\n%s", want, text)
	}
	if doc.Attachment == nil || !strings.Contains(doc.Attachment.Text, "+line=29") {
		t.Errorf("the drift reply's attachment lacks the rest of the diff: %+v", doc.Attachment)
	}
}
