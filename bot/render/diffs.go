package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// File diffs in chat. A Salt change of a file's content carries its unified diff, already
// masked by the layer (a line that may hold a secret reads "<secret masked>"). The full plan and
// a service's drift reply show each diff under its change, cut to diffPostLines lines and
// diffPostRunes characters so that a few of them fit one message on every platform; the whole
// of every diff then goes with the post as an attachment, which the cut says.

const (
	// diffPostLines and diffPostRunes bound one diff in a post.
	diffPostLines = 20
	diffPostRunes = 1500
	// diffLineRunes bounds one line of a diff in a post; the attachment has it whole.
	diffLineRunes = 160
)

// layerChange is a change with the layer it belongs to.
type layerChange struct {
	layer  executor.LayerName
	change executor.Change
}

// diffBlocks are the blocks that show each change's diff, cut, and the attachment (named
// name) with every diff whole when any was cut; nil when no change has a diff.
func diffBlocks(changes []layerChange, name string) ([]adapters.Block, *adapters.Attachment) {
	var blocks []adapters.Block
	var whole strings.Builder
	cut := false
	for _, lc := range changes {
		c := lc.change
		if c.Diff == "" {
			continue
		}
		title := fmt.Sprintf("%s · %s %s", lc.layer.Title(), c.Unit, c.Address)
		fmt.Fprintf(&whole, "%s\n%s\n\n", title, c.Diff)
		shown, more, shortened := cutDiff(c.Diff)
		blocks = append(blocks, adapters.Text{Text: "Diff of " + c.Unit + " " + c.Address + ":"}, adapters.Code{Text: shown})
		switch {
		case more > 0:
			blocks = append(blocks, adapters.Context{Text: fmt.Sprintf("… %d more line%s in the attached %s", more, Plural(more), name)})
		case shortened:
			blocks = append(blocks, adapters.Context{Text: "Long lines shortened (…): the attached " + name + " has them whole"})
		}
		cut = cut || more > 0 || shortened
	}
	if !cut {
		return blocks, nil
	}
	return blocks, &adapters.Attachment{Name: name, Text: strings.TrimRight(whole.String(), "\n")}
}

// cutDiff is the part of diff a post shows, how many of its lines are left out, and whether a
// line shown was shortened.
func cutDiff(diff string) (shown string, more int, shortened bool) {
	lines := strings.Split(diff, "\n")
	var out []string
	runes := 0
	for i, l := range lines {
		long := false
		if r := []rune(l); len(r) > diffLineRunes {
			l, long = string(r[:diffLineRunes])+"…", true
		}
		n := len([]rune(l)) + 1
		if i == diffPostLines || runes+n > diffPostRunes {
			return strings.Join(out, "\n"), len(lines) - i, shortened
		}
		out = append(out, l)
		runes += n
		shortened = shortened || long
	}
	return strings.Join(out, "\n"), 0, shortened
}

// planChanges are every change of a plan, with its layer.
func planChanges(p executor.Plan) []layerChange {
	var out []layerChange
	for _, lp := range p.Layers {
		for _, c := range lp.Changes {
			out = append(out, layerChange{lp.Layer, c})
		}
	}
	return out
}

// driftChanges are the changes of a service's drifted layers, with their layer.
func driftChanges(r ServiceDrift) []layerChange {
	var out []layerChange
	for _, l := range r.Layers {
		if l.Status == executor.DriftDrifted {
			for _, c := range l.Changes {
				out = append(out, layerChange{l.Layer, c})
			}
		}
	}
	return out
}
