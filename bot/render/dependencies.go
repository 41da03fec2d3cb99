package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// dependencyBlocks are the preview's lines about the services the target needs or takes along:
// one brought in, one deployed already that the run changes (with its changes), one deployed
// already that the run leaves alone, and, for a destroy, the dependents removed first.
func dependencyBlocks(plan executor.Plan) []adapters.Block {
	spec := plan.Spec
	deployed := map[string]executor.Dependency{}
	for _, d := range spec.Deployed {
		deployed[d.Service] = d
	}
	var out []adapters.Block
	say := func(format string, args ...any) { out = append(out, adapters.Text{Text: fmt.Sprintf(format, args...)}) }
	for _, u := range spec.Units {
		d, wasDeployed := deployed[u.Service]
		switch {
		case u.Reason == "":
		case u.Destroy:
			say("Also removes %s (%s): destroyed first, in the same run.", u.Service, u.Reason)
		case !wasDeployed:
			say("Also brings in %s (%s): planned in the same run.", u.Service, u.Reason)
		case unitChanges(plan, u.Service) == "":
			say("%s (%s): deployed, nothing to apply; the run records its new values (%s).", u.Service, u.Reason, strings.Join(d.Changes, ", "))
		default:
			say("Also brings in %s (%s): deployed, changes %s; planned in the same run: %s.",
				u.Service, u.Reason, strings.Join(d.Changes, ", "), unitChanges(plan, u.Service))
		}
	}
	for _, d := range spec.Deployed {
		if len(d.Changes) == 0 {
			say("%s: deployed, unchanged (needed %s); this run leaves it alone.", d.Service, d.Reason)
		}
	}
	return out
}

// unitChanges summarises one unit's changes per layer: "Terraform +0 ~1 −0 (eoslab_server.main)";
// empty when no layer changes it.
func unitChanges(plan executor.Plan, service string) string {
	var parts []string
	for _, lp := range plan.Layers {
		var mine []executor.Change
		var addrs []string
		for _, c := range lp.Changes {
			if c.Unit == service && c.Action != executor.NoOp && c.Action != executor.Read {
				mine = append(mine, c)
				if len(addrs) < maxSummaryChanges {
					addrs = append(addrs, c.Address)
				}
			}
		}
		if len(mine) == 0 {
			continue
		}
		if len(mine) > len(addrs) {
			addrs = append(addrs, "…")
		}
		add, change, destroy := executor.LayerPlan{Changes: mine}.Counts()
		parts = append(parts, fmt.Sprintf("%s +%d ~%d −%d (%s)", lp.Layer.Title(), add, change, destroy, strings.Join(addrs, ", ")))
	}
	return strings.Join(parts, "; ")
}
