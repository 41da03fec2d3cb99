package bot

import (
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// runsNowhere answers an operation (resize lvm, …) none of whose layers is configured here:
// its run would skip every layer and say "done", having done nothing. A service's request with
// no configured layer still plans, as its approval records the declared values for a reconcile
// to apply once the layer is configured; an operation declares nothing, so there is nothing to
// approve. It answers nothing (false) for anything else.
func (e *Engine) runsNowhere(spec executor.Spec, plan executor.Plan) (answer, bool) {
	if _, ok := e.cfg.Catalog.Operation(spec.Verb, spec.Target); !ok || plan.HasChanges() || len(plan.Failures()) > 0 {
		return answer{}, false
	}
	var off []string
	for _, lp := range plan.Layers {
		switch lp.Status {
		case executor.PlanNotConfigured:
			off = append(off, lp.Layer.Title())
		case executor.PlanNothing:
		default:
			return answer{}, false // a layer was checked: its preview says what it found
		}
	}
	if len(off) == 0 {
		return answer{}, false
	}
	return said(render.OperationRunsNowhere(spec.Verb+" "+spec.Target, off)), true
}
