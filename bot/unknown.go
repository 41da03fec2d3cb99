package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// After a run whose outcome in a layer Eos did not see (executor.ResultUnknown: the layer's
// server stopped answering after the work was handed over), the service is marked for a drift
// check: Eos checks the layer against the run's plan once its server answers again, posts what
// it finds in the run's thread and records it (the audit's outcome-check entry), so `status
// SERVICE` stops saying "drift check pending". Until then, the next digest checks the service
// first.

// outcomeWatch bounds how long Eos waits for the layer's server to answer again.
const outcomeWatch = time.Hour

// outcomeBackoff spaces the checks while the server does not answer.
var outcomeBackoff = executor.Backoff{Min: 2 * time.Second, Max: time.Minute}

// watchOutcome starts the check of run's unknown outcome, if it has one. It ends on
// shutdown; the next process leaves it to the digest (status still says it is pending).
func (e *Engine) watchOutcome(a adapters.Adapter, run *store.Run, spec executor.Spec) {
	lr := unknownLayer(run)
	if lr == nil {
		return
	}
	layer := lr.Layer
	e.follow.Add(1)
	go func() {
		defer e.follow.Done()
		e.checkOutcome(e.runCtx, a, run, layer, spec)
	}()
}

// checkOutcome checks layer of spec until its check does not fail (the server answers), then
// says what it found.
func (e *Engine) checkOutcome(ctx context.Context, a adapters.Adapter, run *store.Run, layer executor.LayerName, spec executor.Spec) {
	ctx, cancel := context.WithTimeout(ctx, outcomeWatch)
	defer cancel()
	log := e.log.With("run", run.ID, "layer", layer)
	key := run.Env + "/" + run.Target
	for n := 0; ; n++ {
		if latest := e.unfinishedKeys(func(string, string) bool { return true })[key]; latest == nil || latest.ID != run.ID {
			log.Info("not checking the run's unknown outcome: a later run on the service superseded it")
			return
		}
		var got *executor.LayerDrift
		if e.inFlight(run.Env, run.Target) == "" { // a run on it now: check once it is done
			dctx, dcancel := context.WithTimeout(ctx, driftTimeout)
			for _, d := range e.cfg.Runner.Drift(dctx, spec) {
				if d.Layer == layer {
					got = &d
				}
			}
			dcancel()
		}
		if got != nil && got.Status != executor.DriftUnknown {
			e.outcomeFound(ctx, a, run, *got)
			return
		}
		t := time.NewTimer(outcomeBackoff.Delay(n))
		select {
		case <-ctx.Done():
			t.Stop()
			log.Warn("the outcome of the run is still unknown: its layer's server did not answer; the next drift digest checks the service first")
			return
		case <-t.C:
		}
	}
}

// outcomeFound records and posts what the check of run's unknown layer found.
func (e *Engine) outcomeFound(ctx context.Context, a adapters.Adapter, run *store.Run, d executor.LayerDrift) {
	t := d.Layer.Title()
	var text string
	switch d.Status {
	case executor.DriftClean:
		text = fmt.Sprintf("%s answers again, and what run %s gave it is in place: its apply did finish.", t, run.ID)
	case executor.DriftSkipped:
		text = fmt.Sprintf("%s answers again, but has nothing of run %s to check (%s).", t, run.ID, d.Reason)
	default:
		text = fmt.Sprintf("%s answers again, and what run %s gave it is not all in place: %s.", t, run.ID, strings.Join(changeTexts(d.Changes), "; "))
	}
	next := "Nothing was rolled back, and the layers after it did not start: ask again to finish the change · @eos status " + run.Target
	e.audit(store.Entry{Kind: outcomeCheckKind, PlanID: run.ID, Service: run.Target, Env: run.Env, Text: text})
	e.say(ctx, a, run.Progress, reply(text, next))
}

// outcomesFirst orders a digest's services so those marked for a drift check (the latest run
// on them has an outcome Eos did not see, not checked since) are checked first.
func (e *Engine) outcomesFirst(todo []*store.Deployed) []*store.Deployed {
	unfinished := e.unfinishedKeys(func(string, string) bool { return true }) // leftover.go
	var first, rest []*store.Deployed
	for _, d := range todo {
		if r := unfinished[d.Key]; r != nil && unknownLayer(r) != nil && e.outcomeCheck(r, d.Key) == nil {
			first = append(first, d)
		} else {
			rest = append(rest, d)
		}
	}
	return append(first, rest...)
}
