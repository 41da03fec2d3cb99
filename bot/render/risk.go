package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// maxRiskLines is how many risky changes the preview names in its first lines; the others are
// counted there and listed by `plan ID full`.
const maxRiskLines = 5

// riskBlocks are the preview's first lines after its heading: what can hurt, data loss first,
// then deletions, replacements and disruptions (a service restarted), each with what forces
// it. None when the plan only adds and changes in place without disrupting anything.
func riskBlocks(p executor.Plan, id string) []adapters.Block {
	var risky []executor.Change
	for _, lp := range p.Layers {
		for _, c := range lp.Changes {
			if c.Risky() {
				risky = append(risky, c)
			}
		}
	}
	if len(risky) == 0 {
		return nil
	}
	slices.SortStableFunc(risky, func(a, b executor.Change) int { return a.RiskRank() - b.RiskRank() })
	var lines []string
	for i, c := range risky {
		if i == maxRiskLines {
			lines = append(lines, fmt.Sprintf("… and %d more that can hurt: @eos plan %s full", len(risky)-maxRiskLines, id))
			break
		}
		lines = append(lines, riskLine(c))
	}
	return []adapters.Block{adapters.Text{Text: strings.Join(lines, "\n")}}
}

// riskLine is one risky change: "⚠ data loss: nextcloud eoslab_volume.data (100G) — destroyed",
// "± replaces nextcloud eoslab_dns_record.main — forced by name", "− destroys grafana
// eoslab_server.main", "↻ disrupts web node1: service.running nginx — service nginx would
// restart (watch: file /etc/nginx/nginx.conf)".
func riskLine(c executor.Change) string {
	what := strings.TrimSpace(c.Unit + " " + c.Address)
	if c.DataLoss {
		s := "⚠ data loss: " + what
		if c.Size != "" {
			s += " (" + c.Size + ")"
		}
		if c.Action == executor.Replace {
			return s + " — replaced" + forcedBy(c, ", ")
		}
		return s + " — destroyed" + reasonNote(c)
	}
	switch {
	case c.Action == executor.Replace:
		return "± replaces " + what + forcedBy(c, " — ")
	case c.Disrupts():
		return "↻ disrupts " + what + " — " + c.Forces
	}
	return "− destroys " + what + reasonNote(c)
}

// forcedBy says what forces a replacement: ", forced by image" (sep first); Terraform's reason
// when it is not simply that an attribute cannot change in place ("tainted").
func forcedBy(c executor.Change, sep string) string {
	var parts []string
	if c.Forces != "" {
		parts = append(parts, "forced by "+c.Forces)
	}
	if c.Reason != "" && (c.Forces == "" || c.Reason != "cannot update in place") {
		parts = append(parts, c.Reason)
	}
	if len(parts) == 0 {
		return ""
	}
	return sep + strings.Join(parts, ", ")
}

// reasonNote is " (no longer in the module)" for a deletion with a reason.
func reasonNote(c executor.Change) string {
	if c.Reason == "" {
		return ""
	}
	return " (" + c.Reason + ")"
}

// changeDetail is a change's detail in the full plan: the attribute changes, then what forces
// a replacement and whether data is lost.
func changeDetail(c executor.Change) string {
	return joinNonEmpty(" · ", c.Detail, changeNotes(c))
}

// changeNotes is what forces a replacement, or why a change is made, and whether data is
// lost: "forced by image · ⚠ data loss (200G)".
func changeNotes(c executor.Change) string {
	var parts []string
	if c.Action == executor.Replace {
		if f := forcedBy(c, ""); f != "" {
			parts = append(parts, f)
		}
	} else if c.Disrupts() {
		parts = append(parts, c.Forces)
	} else if c.Reason != "" {
		parts = append(parts, c.Reason)
	}
	if c.DataLoss {
		s := "⚠ data loss"
		if c.Size != "" {
			s += " (" + c.Size + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " · ")
}
