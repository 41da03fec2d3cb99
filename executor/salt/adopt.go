package salt

import (
	"context"
	"fmt"
	"strings"

	"github.com/eosbot/eos/executor"
)

// maxAdoptStates is how many differing states an adopt's plan names; the rest are counted.
const maxAdoptStates = 4

// keepHint says how to keep a change Salt would undo: the state is the source of truth.
const keepHint = "Salt's states are the source of truth: to keep a change, change the blueprint or its pillar; a reconcile undoes it"

// planAdopt is the Salt plan of an adopt: Salt cannot adopt (a state is a command to run, not
// a record of what exists), so an adopt never applies it. The dry run still says which states
// differ from what runs, and the plan names them as left as is, with how to keep them. The
// status is PlanNoChanges, so the run skips the layer.
func (l *Layer) planAdopt(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	p := executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanNoChanges, Summary: "no changes", Digest: "salt: adopt applies nothing\n"}
	runs, err := l.dryRun(ctx, spec)
	if err != nil {
		if ctx.Err() != nil {
			return p, err
		}
		p.Kept = "not applied by an adopt (its states could not be checked: " + firstLine(err.Error()) + ")"
		p.Summary = p.Kept
		return p, nil
	}
	var states []string
	for _, r := range runs {
		for _, m := range r.rets {
			for _, c := range changesOf(r.unit, m, nil) {
				states = append(states, c.Address)
			}
		}
	}
	if len(states) == 0 {
		return p, nil
	}
	p.Kept = AdoptKept(states)
	p.Summary = p.Kept
	p.Digest += strings.Join(states, "\n") + "\n"
	return p, nil
}

// AdoptKept is what an adopt's Salt plan says about the states that differ from what runs
// (named "<minion>: <state>"): each is left as is, and how to keep it.
func AdoptKept(states []string) string {
	named := states
	if len(named) > maxAdoptStates {
		named = named[:maxAdoptStates]
	}
	list := strings.Join(named, "; ")
	if more := len(states) - len(named); more > 0 {
		list += fmt.Sprintf("; and %d more", more)
	}
	return fmt.Sprintf("left as is, not adopted: %s — %s", list, keepHint)
}
