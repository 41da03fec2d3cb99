package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// The full plan, `plan ID full`, is every change of every layer with every attribute it
// changes (sensitive values read "(sensitive)"): a change whose Detail names only the first
// few attributes gets a row for each of them. Nothing in it is cut; the adapters deliver a
// text longer than one message as a file or as further messages in the thread.

// fullChanges lists every change of every layer, for the preview's attachment. It is empty
// when the preview already names every change.
func fullChanges(p executor.Plan) string {
	var b strings.Builder
	total := 0
	for _, lp := range p.Layers {
		total += len(lp.Changes)
		for _, c := range lp.Changes {
			fmt.Fprintf(&b, "%-9s %-8s %s %s", lp.Layer.Title(), c.Action, c.Unit, c.Address)
			if d := joinNonEmpty(" · ", strings.Join(AttrLines(c), ", "), changeNotes(c)); d != "" {
				b.WriteString(" (" + d + ")")
			}
			b.WriteByte('\n')
		}
	}
	if total <= maxSummaryChanges {
		return ""
	}
	return strings.TrimRight(b.String(), "\n")
}

// FullPlan answers `plan ID full`.
func FullPlan(p *store.Plan) adapters.Doc {
	var rows [][]string
	for _, lp := range p.Plan.Layers {
		if len(lp.Changes) == 0 {
			rows = append(rows, []string{lp.Layer.Title(), "", layerSummary(lp), ""})
		}
		for _, c := range lp.Changes {
			rows = append(rows, changeRows(lp.Layer, c)...)
		}
	}
	blocks := []adapters.Block{adapters.Heading{Text: fmt.Sprintf("Plan %s · %s · %s", p.ID, RequestLine(p.Plan.Spec), p.State)}}
	blocks = append(blocks, failureBlocks(p.Plan)...) // preview.go
	blocks = append(blocks, changesBlocks(p.Plan.Spec)...)
	blocks = append(blocks, adapters.Table{Header: []string{"layer", "action", "what", "detail"}, Rows: rows})
	diffs, whole := diffBlocks(planChanges(p.Plan), "plan-"+p.ID+".diff") // diffs.go
	blocks = append(blocks, diffs...)
	doc := adapters.NewDoc(append(blocks, adapters.Context{Text: "hash " + p.Plan.Hash[:16] + "… · asked by @" + p.Requester.Name})...)
	doc.Attachment = whole
	return doc
}

// changeRows are c's rows in the full plan: one when its Detail says everything, else one
// per changed attribute, then one for what forces it and the data it loses.
func changeRows(layer executor.LayerName, c executor.Change) [][]string {
	first := []string{layer.Title(), string(c.Action), c.Unit + " " + c.Address}
	if c.Attrs == "" {
		return [][]string{append(first, changeDetail(c))}
	}
	var rows [][]string
	for i, attr := range AttrLines(c) {
		if i == 0 {
			rows = append(rows, append(first, attr))
			continue
		}
		rows = append(rows, []string{"", "", "", attr})
	}
	if notes := changeNotes(c); notes != "" {
		rows = append(rows, []string{"", "", "", notes})
	}
	return rows
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
