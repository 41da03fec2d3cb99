package bot

import (
	"context"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// After a run whose outcome in a layer Eos did not see (executor.ResultUnknown: the layer's
// server stopped answering after the work was handed over), the service is marked for a drift
// check: Eos checks the layer against the run's plan once its server answers again, posts what
// it finds in the run's thread and records it (the audit's outcome-check entry), so `status
// SERVICE` stops saying "drift check pending". Until then, the next digest checks the service
// first. The pending check is kept in the store (store.OutcomeCheck) until it ends, so an Eos
// started again resumes it (Recover calls resumeOutcomeChecks), within the same hour.

// outcomeWatch bounds how long Eos waits for the layer's server to answer again, counted from
// the run's end (a restart does not extend it).
const outcomeWatch = time.Hour

// outcomeBackoff spaces the checks while the server does not answer.
var outcomeBackoff = executor.Backoff{Min: 2 * time.Second, Max: time.Minute}

// watchOutcome starts the check of run's unknown outcome, if it has one, and records it as
// pending. It ends on shutdown, and the next process resumes it.
func (e *Engine) watchOutcome(ctx context.Context, a adapters.Adapter, run *store.Run, spec executor.Spec) {
	lr := render.UnknownLayer(run)
	if lr == nil {
		return
	}
	c := store.OutcomeCheck{RunID: run.ID, Layer: lr.Layer, Spec: spec, Thread: run.Progress, Since: run.Finished, Until: run.Finished.Add(outcomeWatch)}
	if err := e.st.AddOutcomeCheck(ctx, c); err != nil {
		// Checked in this process all the same; after a restart the digest checks it first.
		e.log.Error("recording the pending check of an unknown outcome", "run", run.ID, "err", err)
	}
	e.followCheck(a, c)
}

func (e *Engine) followCheck(a adapters.Adapter, c store.OutcomeCheck) {
	e.runs.follow.Add(1)
	go func() {
		defer e.runs.follow.Done()
		e.checkOutcome(e.runs.ctx, a, c)
	}()
}

// resumeOutcomeChecks resumes the checks a previous process left pending; one whose time is
// up is left to the digest.
func (e *Engine) resumeOutcomeChecks(ctx context.Context) {
	checks, err := e.st.OutcomeChecks(ctx)
	if err != nil {
		e.log.Error("reading the pending checks of unknown outcomes", "err", err)
		return
	}
	for _, c := range checks {
		if !e.now().Before(c.Until) {
			e.endCheck(ctx, c, "the outcome of the run is still unknown: its layer's server did not answer in time; the next drift digest checks the service first")
			continue
		}
		a, ok := e.adapter(c.Thread.Platform)
		if !ok {
			e.log.Warn("not resuming the check of an unknown outcome: its platform is not connected", "run", c.RunID, "platform", c.Thread.Platform)
			continue
		}
		e.log.Info("resuming the check of a run's unknown outcome", "run", c.RunID, "layer", c.Layer)
		e.followCheck(a, c)
	}
}

// endCheck forgets check c without a finding, and logs why.
func (e *Engine) endCheck(ctx context.Context, c store.OutcomeCheck, why string) {
	if _, err := e.st.EndOutcomeCheck(ctx, c.RunID); err != nil {
		e.log.Error("ending the check of an unknown outcome", "run", c.RunID, "err", err)
	}
	e.log.Warn(why, "run", c.RunID, "layer", c.Layer)
}

// checkOutcome checks c's layer until its check does not fail (the server answers), then
// says what it found.
func (e *Engine) checkOutcome(ctx context.Context, a adapters.Adapter, c store.OutcomeCheck) {
	wctx, cancel := context.WithTimeout(ctx, c.Until.Sub(e.now())) // the engine's clock, as the run's end
	defer cancel()
	log := e.log.With("run", c.RunID, "layer", c.Layer)
	for n := 0; ; n++ {
		run, err := e.st.Run(ctx, c.RunID)
		if err != nil {
			log.Error("reading the run whose outcome is unknown", "err", err)
		} else if latest := e.unfinishedKeys(ctx, func(string, string) bool { return true })[run.Env+"/"+run.Target]; latest == nil || latest.ID != run.ID {
			e.endCheck(ctx, c, "not checking the run's unknown outcome: a later run on the service superseded it")
			return
		}
		var got *executor.LayerDrift
		if err == nil && e.inFlight(ctx, run.Env, run.Target) == "" { // a run on it now: check once it is done
			dctx, dcancel := context.WithTimeout(wctx, driftTimeout)
			for _, d := range e.cfg.Runner.Drift(dctx, c.Spec) {
				if d.Layer == c.Layer {
					got = &d
				}
			}
			dcancel()
		}
		if got != nil && got.Status != executor.DriftUnknown {
			e.outcomeFound(wctx, a, run, c, *got)
			return
		}
		t := time.NewTimer(outcomeBackoff.Delay(n))
		select {
		case <-wctx.Done():
			t.Stop()
			if ctx.Err() != nil {
				log.Info("stopping with the check of an unknown outcome pending: the next start resumes it")
				return
			}
			e.endCheck(ctx, c, "the outcome of the run is still unknown: its layer's server did not answer; the next drift digest checks the service first")
			return
		case <-t.C:
		}
	}
}

// outcomeFound records what the check of run's unknown layer found, ending the pending check
// in the same transaction, and posts it in the run's thread (or its channel, when the thread
// is gone). A check another process ended already is not said twice.
func (e *Engine) outcomeFound(ctx context.Context, a adapters.Adapter, run *store.Run, c store.OutcomeCheck, d executor.LayerDrift) {
	text := render.OutcomeFound(run.ID, d)
	entry := e.entry(store.Entry{Kind: outcomeCheckKind, PlanID: run.ID, Service: run.Target, Env: run.Env, Text: text})
	ended, err := e.st.EndOutcomeCheck(ctx, run.ID, entry)
	switch {
	case err != nil:
		e.log.Error("recording the check of an unknown outcome", "run", run.ID, "err", err)
		e.audit(ctx, entry)
	case !ended:
		e.log.Info("the check of the run's unknown outcome was ended elsewhere: not saying it again", "run", run.ID)
		return
	}
	e.sayAnywhere(ctx, a, c.Thread, render.OutcomeDoc(text, run.Target))
}

// outcomesFirst orders a digest's services so those marked for a drift check (the latest run
// on them has an outcome Eos did not see, not checked since) are checked first.
func (e *Engine) outcomesFirst(ctx context.Context, todo []*store.Deployed) []*store.Deployed {
	unfinished := e.unfinishedKeys(ctx, func(string, string) bool { return true }) // leftover.go
	var first, rest []*store.Deployed
	for _, d := range todo {
		if r := unfinished[d.Key]; r != nil && render.UnknownLayer(r) != nil && e.outcomeCheck(ctx, r, d.Key) == nil {
			first = append(first, d)
		} else {
			rest = append(rest, d)
		}
	}
	return append(first, rest...)
}
