package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// maxSummaryChanges is how many changes the preview names per layer; the full list is in
// `plan ID full` and in the attachment.
const maxSummaryChanges = 4

// previewDoc renders a plan for approval (or, for `plan ...`, for reading only).
func previewDoc(p *store.Plan, j judgement, vaultRow string) adapters.Doc {
	spec := p.Plan.Spec
	head := fmt.Sprintf("Plan %s · %s · asked by @%s", p.ID, requestLine(spec), p.Requester.Name)
	rows := [][]string{}
	for _, lp := range p.Plan.Layers {
		rows = append(rows, []string{lp.Layer.Title(), layerSummary(lp)})
	}
	if vaultRow != "" {
		rows = append(rows, []string{"Vault", vaultRow})
	}
	blocks := []adapters.Block{adapters.Heading{Text: head}}
	blocks = append(blocks, failureBlocks(p.Plan)...)
	blocks = append(blocks, codeBlocks(j.code)...)       // the policy's denies and warnings (policyrender.go)
	blocks = append(blocks, riskBlocks(p.Plan, p.ID)...) // what can hurt first,
	blocks = append(blocks, changesBlocks(spec)...)      // then the values that change (request.go)
	blocks = append(blocks, adapters.Table{Header: []string{"layer", "what changes"}, Rows: rows})
	blocks = append(blocks, dependencyBlocks(p.Plan)...)
	var next []string
	switch p.State {
	case store.PlanPreview:
		next = append(next, "Preview only: nothing will run. To apply it, ask without \"plan\": @eos "+requestLine(spec))
	case store.PlanBlocked:
		next = append(next, blockedNote(p))
	default:
		if j.code.denied() && p.State == store.PlanPending {
			next = append(next, deniedNote(p)) // no reaction prompt: none could run it
			break
		}
		if !p.Plan.HasChanges() {
			next = append(next, "Nothing to change: everything already matches. Approving records it as the declared state.")
		}
		next = append(next, approvalLines(p, j)...) // approvalstatus.go
	}
	blocks = append(blocks, adapters.Context{Text: strings.Join(next, "\n")})
	doc := adapters.NewDoc(blocks...)
	if full := fullChanges(p.Plan); full != "" {
		doc.Attachment = &adapters.Attachment{Name: "plan-" + p.ID + ".txt", Text: full}
	}
	return doc
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
		typedRequest(p.Text), p.ID)
}

// typedRequest is the request as typed, without the mention it may start with ("@eos create
// grafana" → "create grafana"), to repeat it after "@eos".
func typedRequest(text string) string {
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
func skipped(lp executor.LayerPlan) string {
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

// layerState is one layer's line in the progress post.
type layerState struct {
	name    executor.LayerName
	icon    string
	text    string
	done    int
	total   int
	current string
	// note is what the layer says while it waits rather than advances ("salt-api not
	// answering for 40 s, retrying"), shown until its next step.
	note string
}

// progressDoc renders the run's single post while it runs.
func progressDoc(id string, approvers []string, layers []layerState) adapters.Doc {
	parts := []string{"Run " + id, "approved by " + mentions(approvers)}
	for _, l := range layers {
		parts = append(parts, l.line())
	}
	return adapters.NewDoc(adapters.Text{Text: strings.Join(parts, " · ")})
}

func (l layerState) line() string {
	s := l.name.Title() + " " + l.icon
	switch {
	case l.icon == iconRollingBack:
		s += " rolling back"
		if l.total > 0 {
			s += fmt.Sprintf(" %d/%d", l.done, l.total)
		}
		if l.current != "" {
			s += " " + l.current + "…"
		}
	case l.icon == iconRunning && l.total > 0:
		s += fmt.Sprintf(" %d/%d", l.done, l.total)
		if l.current != "" && l.note == "" {
			s += " " + l.current + "…"
		}
	case l.text != "":
		s += " " + l.text
	}
	if l.note != "" && (l.icon == iconRunning || l.icon == iconRollingBack) {
		s += " · " + l.note
	}
	return s
}

// waitingNote is the text of an event that reports a layer waiting rather than advancing: a
// notice (a server that does not answer and is being retried, "salt-api not answering for
// 40 s, retrying"; an allocation failing while Nomad's health is awaited), or any event that
// names no resource but says something. Empty for a step.
func waitingNote(ev executor.Event) string {
	if ev.Message != "" && (ev.Notice || ev.Resource == "") {
		return ev.Message
	}
	return ""
}

const (
	iconWaiting = "⏸"
	iconRunning = "⏳"
	iconOK      = "✅"
	iconFailed  = "❌"
	iconSkipped = "⏭"
	iconStopped = "⚠"
	// iconHalted marks a layer Eos stopped itself before it changed anything (a stale plan).
	iconHalted = "⏹"
	// iconRollingBack marks a layer being undone after a failure.
	iconRollingBack = "↩"
	// iconUnknown marks a layer whose end Eos did not see (its server stopped answering).
	iconUnknown = "❔"
)

// unknownLayer is the layer of r whose outcome Eos did not see, or nil.
func unknownLayer(r *store.Run) *executor.LayerResult {
	for i := range r.Layers {
		if r.Layers[i].Status == executor.ResultUnknown {
			return &r.Layers[i]
		}
	}
	return nil
}

// resultDoc renders the run's final state.
func resultDoc(r *store.Run) adapters.Doc {
	elapsed := r.Finished.Sub(r.Started).Round(time.Second)
	parts := []string{"Run " + r.ID}
	var failed *executor.LayerResult
	switch r.State {
	case store.RunDone:
		parts = append(parts, fmt.Sprintf("done in %s", humanDuration(elapsed)))
	case store.RunFailed:
		if unknownLayer(r) != nil {
			parts = append(parts, "outcome unknown")
		} else {
			parts = append(parts, "failed")
		}
	case store.RunInterrupted:
		parts = append(parts, "interrupted")
	}
	for i, l := range r.Layers {
		parts = append(parts, resultLine(l))
		switch l.Status {
		case executor.ResultFailed, executor.ResultCancelled, executor.ResultHalted, executor.ResultUnknown:
			failed = &r.Layers[i]
		}
	}
	if r.State == store.RunDone {
		parts = append(parts, "@eos history "+r.Target)
	}
	blocks := []adapters.Block{adapters.Text{Text: strings.Join(parts, " · ")}}
	if failed != nil {
		blocks = append(blocks, adapters.Context{Text: strings.Join(failureNotes(r, failed), "\n")}) // advice.go
	}
	return adapters.NewDoc(blocks...)
}

func resultLine(l executor.LayerResult) string {
	t := l.Layer.Title()
	switch l.Status {
	case executor.ResultOK:
		return strings.TrimSpace(t + " " + iconOK + " " + l.Summary)
	case executor.ResultSkipped:
		return t + " " + iconSkipped + " " + l.Summary
	case executor.ResultNotStarted:
		return t + " " + iconWaiting
	case executor.ResultHalted:
		return t + " " + iconHalted + " " + l.Error
	case executor.ResultUnknown:
		return t + " " + iconUnknown + " " + l.Error
	case executor.ResultFailed:
		what := l.Error
		if l.Failed != nil && l.Failed.Address != "" && !strings.Contains(what, l.Failed.Address) {
			what = l.Failed.Address + ": " + what
		}
		return t + " " + iconFailed + " " + what
	}
	return t + " " + iconStopped + " " + string(l.Status) + " " + l.Error
}

// humanDuration writes how long something took, rounded to the second, the same in the run's
// post and in history: "9 s", "2m5s".
func humanDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return d.String()
}

// mentions names the people and groups of a policy list: "@bob, anyone in group sre", or
// "anyone" for an empty list.
func mentions(users []string) string {
	if len(users) == 0 {
		return "anyone"
	}
	out := make([]string, len(users))
	for i, u := range users {
		en := policy.ParseEntry(u)
		if en.Group {
			out[i] = "anyone in group " + en.Name
		} else {
			out[i] = "@" + en.Name
		}
		if en.Platform != "" {
			out[i] += " on " + en.Platform
		}
	}
	return strings.Join(out, ", ")
}

// reply is a short answer: a sentence and, optionally, a footer.
func reply(text string, context ...string) adapters.Doc {
	blocks := []adapters.Block{adapters.Text{Text: text}}
	for _, c := range context {
		blocks = append(blocks, adapters.Context{Text: c})
	}
	return adapters.NewDoc(blocks...)
}
