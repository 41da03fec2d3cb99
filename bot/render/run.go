package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// LayerState is one layer's line in the progress post.
type LayerState struct {
	Name    executor.LayerName
	Icon    string
	Text    string
	Done    int
	Total   int
	Current string
	// Note is what the layer says while it waits rather than advances ("salt-api not
	// answering for 40 s, retrying"), shown until its next step.
	Note string
}

// ProgressDoc renders the run's single post while it runs.
func ProgressDoc(id string, approvers []string, layers []LayerState) adapters.Doc {
	parts := []string{"Run " + id, "approved by " + Mentions(approvers)}
	for _, l := range layers {
		parts = append(parts, l.line())
	}
	return adapters.NewDoc(adapters.Text{Text: strings.Join(parts, " · ")})
}

func (l LayerState) line() string {
	s := l.Name.Title() + " " + l.Icon
	switch {
	case l.Icon == IconRollingBack:
		s += " rolling back"
		if l.Total > 0 {
			s += fmt.Sprintf(" %d/%d", l.Done, l.Total)
		}
		if l.Current != "" {
			s += " " + l.Current + "…"
		}
	case l.Icon == IconRunning && l.Total > 0:
		s += fmt.Sprintf(" %d/%d", l.Done, l.Total)
		if l.Current != "" && l.Note == "" {
			s += " " + l.Current + "…"
		}
	case l.Text != "":
		s += " " + l.Text
	}
	if l.Note != "" && (l.Icon == IconRunning || l.Icon == IconRollingBack) {
		s += " · " + l.Note
	}
	return s
}

// WaitingNote is the text of an event that reports a layer waiting rather than advancing: a
// notice (a server that does not answer and is being retried, "salt-api not answering for
// 40 s, retrying"; an allocation failing while Nomad's health is awaited), or any event that
// names no resource but says something. Empty for a step.
func WaitingNote(ev executor.Event) string {
	if ev.Message != "" && (ev.Notice || ev.Resource == "") {
		return ev.Message
	}
	return ""
}

const (
	IconWaiting = "⏸"
	IconRunning = "⏳"
	IconOK      = "✅"
	IconFailed  = "❌"
	IconSkipped = "⏭"
	IconStopped = "⚠"
	// IconHalted marks a layer Eos stopped itself before it changed anything (a stale plan).
	IconHalted = "⏹"
	// IconRollingBack marks a layer being undone after a failure.
	IconRollingBack = "↩"
	// IconUnknown marks a layer whose end Eos did not see (its server stopped answering).
	IconUnknown = "❔"
)

// UnknownLayer is the layer of r whose outcome Eos did not see, or nil.
func UnknownLayer(r *store.Run) *executor.LayerResult {
	for i := range r.Layers {
		if r.Layers[i].Status == executor.ResultUnknown {
			return &r.Layers[i]
		}
	}
	return nil
}

// Result renders the run's final state.
func Result(r *store.Run) adapters.Doc {
	elapsed := r.Finished.Sub(r.Started).Round(time.Second)
	parts := []string{"Run " + r.ID}
	var failed *executor.LayerResult
	switch r.State {
	case store.RunDone:
		parts = append(parts, fmt.Sprintf("done in %s", humanDuration(elapsed)))
	case store.RunFailed:
		if UnknownLayer(r) != nil {
			parts = append(parts, "outcome unknown")
		} else {
			parts = append(parts, "failed")
		}
	case store.RunInterrupted:
		parts = append(parts, "interrupted")
	}
	for i, l := range r.Layers {
		parts = append(parts, ResultLine(l))
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

func ResultLine(l executor.LayerResult) string {
	t := l.Layer.Title()
	switch l.Status {
	case executor.ResultOK:
		return strings.TrimSpace(t + " " + IconOK + " " + l.Summary)
	case executor.ResultSkipped:
		return t + " " + IconSkipped + " " + l.Summary
	case executor.ResultNotStarted:
		return t + " " + IconWaiting
	case executor.ResultHalted:
		return t + " " + IconHalted + " " + l.Error
	case executor.ResultUnknown:
		return t + " " + IconUnknown + " " + l.Error
	case executor.ResultFailed:
		what := l.Error
		if l.Failed != nil && l.Failed.Address != "" && !strings.Contains(what, l.Failed.Address) {
			what = l.Failed.Address + ": " + what
		}
		return t + " " + IconFailed + " " + what
	}
	return t + " " + IconStopped + " " + string(l.Status) + " " + l.Error
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

// Mentions names the people and groups of a policy list: "@bob, anyone in group sre", or
// "anyone" for an empty list.
func Mentions(users []string) string {
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
func Reply(text string, context ...string) adapters.Doc {
	blocks := []adapters.Block{adapters.Text{Text: text}}
	for _, c := range context {
		blocks = append(blocks, adapters.Context{Text: c})
	}
	return adapters.NewDoc(blocks...)
}
