package bot

import (
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// runsNowhere answers an operation (resize lvm, …) that would do nothing: none of its layers
// is configured here, or those that are find everything already as asked (Salt's test run
// changes nothing). Its run would skip every layer and say "done", having done nothing. A
// service's request with no configured layer still plans, as its approval records the
// declared values for a reconcile to apply once the layer is configured; an operation
// declares nothing, so there is nothing to approve. It answers nothing (false) otherwise.
func (e *Engine) runsNowhere(spec executor.Spec, plan executor.Plan) (answer, bool) {
	if _, ok := e.cfg.Catalog.Operation(spec.Verb, spec.Target); !ok {
		return answer{}, false
	}
	checked, off, _, ok := idleLayers(plan, false) // asdeclared.go
	switch {
	case !ok:
		return answer{}, false
	case len(checked) > 0:
		return said(render.OperationChangesNothing(spec.Verb+" "+spec.Target, checked)), true
	case len(off) > 0:
		return said(render.OperationRunsNowhere(spec.Verb+" "+spec.Target, off)), true
	}
	return answer{}, false
}
