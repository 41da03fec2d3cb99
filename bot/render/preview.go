package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// maxSummaryChanges is how many changes the preview names per layer; the full list is in
// `plan ID full` and in the attachment.
const maxSummaryChanges = 4

// Preview renders a plan for approval (or, for `plan ...`, for reading only); vaultRow is its
// VaultRow.
func Preview(p *store.Plan, j Judgement, vaultRow string) adapters.Doc {
	spec := p.Plan.Spec
	head := fmt.Sprintf("Plan %s · %s · asked by @%s", p.ID, RequestLine(spec), p.Requester.Name)
	rows := [][]string{}
	for _, lp := range p.Plan.Layers {
		rows = append(rows, []string{lp.Layer.Title(), layerSummary(lp)})
	}
	if vaultRow != "" {
		rows = append(rows, []string{"Vault", vaultRow})
	}
	blocks := []adapters.Block{adapters.Heading{Text: head}}
	blocks = append(blocks, failureBlocks(p.Plan)...)
	blocks = append(blocks, codeBlocks(j.Code)...)       // the policy's denies and warnings (policy.go)
	blocks = append(blocks, riskBlocks(p.Plan, p.ID)...) // what can hurt first,
	blocks = append(blocks, changesBlocks(spec)...)      // then the values that change
	blocks = append(blocks, adapters.Table{Header: []string{"layer", "what changes"}, Rows: rows})
	blocks = append(blocks, dependencyBlocks(p.Plan)...)
	var next []string
	switch p.State {
	case store.PlanPreview:
		next = append(next, "Preview only: nothing will run. To apply it, ask without \"plan\": @eos "+RequestLine(spec))
	case store.PlanBlocked:
		next = append(next, blockedNote(p))
	default:
		if j.Code.Denied() && p.State == store.PlanPending {
			next = append(next, deniedNote(p)) // no reaction prompt: none could run it
			break
		}
		if !p.Plan.HasChanges() {
			next = append(next, nothingToChange(p.Plan))
		}
		next = append(next, approvalLines(p, j)...) // approval.go
	}
	blocks = append(blocks, adapters.Context{Text: strings.Join(next, "\n")})
	doc := adapters.NewDoc(blocks...)
	if full := fullChanges(p.Plan); full != "" {
		doc.Attachment = &adapters.Attachment{Name: "plan-" + p.ID + ".txt", Text: full}
	}
	return doc
}

// nothingToChange closes the preview of a plan no layer has anything to do for. When values
// change but a layer they may feed is not configured here, "everything already matches" would
// be untrue: the new values are only recorded, and the line says how they get deployed later.
func nothingToChange(p executor.Plan) string {
	var off, on []string
	for _, lp := range p.Layers {
		if lp.Status == executor.PlanNotConfigured {
			off = append(off, lp.Layer.Title())
		} else {
			on = append(on, lp.Layer.Title())
		}
	}
	if len(p.Spec.Changes) == 0 || len(off) == 0 {
		return "Nothing to change: everything already matches. Approving records it as the declared state."
	}
	configured := ""
	if len(on) > 0 {
		configured = " (" + strings.Join(on, ", ") + ")"
	}
	return fmt.Sprintf("Nothing changes in the layers configured here%s, and %s %s not configured, so nothing deploys the new values now. Approving records them as the declared state; once %s configured, @eos reconcile %s in %s applies them.",
		configured, strings.Join(off, " and "), isAre(len(off)), oneOrMany(len(off), "it is", "they are"), p.Spec.Target, p.Spec.Env)
}

// oneOrMany is one when n is 1, else many: the word a sentence needs about n things ("is",
// "are").
func oneOrMany(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func isAre(n int) string { return oneOrMany(n, "is", "are") }

// changesBlocks are the line of a preview or a full plan saying which declared values change.
func changesBlocks(spec executor.Spec) []adapters.Block {
	var out []adapters.Block
	if spec.ReturnsTo != "" {
		out = append(out, adapters.Text{Text: "Returns to the state " + spec.ReturnsTo + " applied"})
	}
	if len(spec.Changes) == 0 {
		return out
	}
	return append(out, adapters.Text{Text: "Declared values: " + strings.Join(spec.Changes, " · ")})
}

// failureBlocks lead the preview of a plan a layer says would fail: ⛔ and one line per
// reason, as the layer gives it (the Salt state and its comment, the Nomad group and the
// scheduler's reason). None when every layer expects to succeed.
func failureBlocks(p executor.Plan) []adapters.Block {
	failures := p.Failures()
	if len(failures) == 0 {
		return nil
	}
	lead := "⛔ This plan would fail, so it cannot be approved:"
	if len(failures) == 1 {
		return []adapters.Block{adapters.Text{Text: lead + " " + failures[0]}}
	}
	return []adapters.Block{adapters.Text{Text: lead}, adapters.List{Items: failures}}
}

// blockedNote closes the preview of a blocked plan (store.PlanBlocked): no approval is
// offered, and what to do instead.
func blockedNote(p *store.Plan) string {
	return fmt.Sprintf("No approval possible: nothing will run. Fix what would fail (the blueprint, its values or the systems it needs), then ask again: @eos %s · details: @eos plan %s full",
		TypedRequest(p.Text), p.ID)
}

// TypedRequest is the request as typed, without the mention it may start with ("@eos create
// grafana" → "create grafana"), to repeat it after "@eos".
func TypedRequest(text string) string {
	text = strings.TrimSpace(text)
	if first, rest, ok := strings.Cut(text, " "); ok && strings.HasPrefix(first, "@") {
		return strings.TrimSpace(rest)
	}
	return text
}

// layerSummary is the preview's row for one layer.
func layerSummary(lp executor.LayerPlan) string {
	switch lp.Status {
	case executor.PlanNotConfigured:
		return "not configured — skipped"
	case executor.PlanNothing:
		return "nothing to do"
	case executor.PlanNoChanges:
		if lp.Kept != "" {
			return lp.Kept // a destroy that leaves something in place says what
		}
		return "no changes"
	}
	if lp.Summary != "" {
		return lp.Summary
	}
	return lp.Tally().String()
}

// skipped is the short word for a layer that will not run, as the progress and result posts
// say it.
func Skipped(lp executor.LayerPlan) string {
	switch lp.Status {
	case executor.PlanNotConfigured:
		return "not configured"
	case executor.PlanNothing:
		return "nothing to do"
	}
	if lp.Kept != "" {
		return "kept"
	}
	return "no changes"
}

// WithNote is d with note as a line of its own before d's last block (a preview's closing
// lines: what happens next).
func WithNote(d adapters.Doc, note string) adapters.Doc {
	if note == "" || len(d.Blocks) == 0 {
		return d
	}
	last := len(d.Blocks) - 1
	blocks := append(append(append([]adapters.Block{}, d.Blocks[:last]...), adapters.Text{Text: note}), d.Blocks[last])
	d.Blocks = blocks
	return d
}
