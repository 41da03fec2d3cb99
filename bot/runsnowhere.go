package bot

import (
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// runsNowhere answers an operation (resize lvm, …) that would do nothing: none of its layers
// is configured here, or those that are find everything already as asked (Salt's test run
// changes nothing). Its run would skip every layer and say "done", having done nothing. A service's request with
// no configured layer still plans, as its approval records the declared values for a reconcile
// to apply once the layer is configured; an operation declares nothing, so there is nothing to
// approve. It answers nothing (false) for anything else.
func (e *Engine) runsNowhere(spec executor.Spec, plan executor.Plan) (answer, bool) {
	if _, ok := e.cfg.Catalog.Operation(spec.Verb, spec.Target); !ok || plan.HasChanges() || len(plan.Failures()) > 0 {
		return answer{}, false
	}
	var off, checked []string
	for _, lp := range plan.Layers {
		switch {
		case lp.Kept != "":
			return answer{}, false // the preview says what it leaves
		case lp.Status == executor.PlanNotConfigured:
			off = append(off, lp.Layer.Title())
		case lp.Status == executor.PlanNoChanges:
			checked = append(checked, lp.Layer.Title())
		}
	}
	switch {
	case len(checked) > 0:
		return said(render.OperationChangesNothing(spec.Verb+" "+spec.Target, checked)), true
	case len(off) > 0:
		return said(render.OperationRunsNowhere(spec.Verb+" "+spec.Target, off)), true
	}
	return answer{}, false
}
