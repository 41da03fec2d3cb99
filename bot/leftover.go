package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// What a run that did not finish well left behind, for `status SERVICE` (which would otherwise
// say "not deployed yet" after a failed create) and for the drift digest (which checks a
// service whose run's outcome is unknown first). Everything here is read from the run's record:
// which layers applied before the failure, how the failed layer's rollback went, and whether
// an outcome Eos did not see has been checked since.

// outcomeCheckKind is the audit entry that records the check of a run whose outcome in a layer
// Eos did not see (unknown.go).
const outcomeCheckKind = "outcome-check"

// unfinishedKeys are the (env/service) keys whose latest finished run did not end done,
// with that run.
func (e *Engine) unfinishedKeys(ctx context.Context, matches func(env, service string) bool) map[string]*store.Run {
	runs, err := e.st.Runs(ctx, func(r *store.Run) bool { return !r.Finished.IsZero() })
	if err != nil {
		e.log.Error("reading runs", "err", err)
		return nil
	}
	latest := map[string]*store.Run{}
	for _, r := range runs { // newest first
		for _, k := range r.LockKeys() {
			if _, seen := latest[k]; !seen {
				latest[k] = r
			}
		}
	}
	out := map[string]*store.Run{}
	for k, r := range latest {
		env, service, _ := strings.Cut(k, "/")
		if r.State != store.RunDone && matches(env, service) {
			out[k] = r
		}
	}
	return out
}

// outcomeCheck is the recorded check of run r's unknown outcome, or nil while it is pending.
// A drift check of the service recorded after the run counts too.
func (e *Engine) outcomeCheck(ctx context.Context, r *store.Run, key string) *store.Entry {
	entries, err := e.st.Audit(ctx, func(en *store.Entry) bool { return en.Kind == outcomeCheckKind && en.PlanID == r.ID })
	if err == nil && len(entries) > 0 {
		return &entries[len(entries)-1]
	}
	if hist, err := e.st.DriftHistory(ctx, key, 1); err == nil && len(hist) == 1 && hist[0].At.After(r.Finished) &&
		hist[0].Status != string(executor.DriftUnknown) {
		return &store.Entry{At: hist[0].At, Text: "drift check " + hist[0].Status + summaryAfter(hist[0].Summary)}
	}
	return nil
}

func summaryAfter(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// leftItems say, layer by layer, what run r left in service: what applied before the failure
// and stays (the failed-layer policy keeps it), how the failed layer's rollback went, what an
// outcome Eos did not see is waiting for, and what did not start.
func (e *Engine) leftItems(ctx context.Context, r *store.Run, key string) []string {
	var failed *executor.LayerResult
	for i := range r.Layers {
		switch r.Layers[i].Status {
		case executor.ResultFailed, executor.ResultUnknown, executor.ResultCancelled, executor.ResultHalted:
			failed = &r.Layers[i]
		}
	}
	var items []string
	for _, l := range r.Layers {
		t := l.Layer.Title()
		switch l.Status {
		case executor.ResultOK:
			if failed != nil && strings.Contains(failed.Rollback, "; "+t+": ") {
				items = append(items, t+": applied, then rolled back with the failed layer (policy: all)")
				continue
			}
			s := t + ": applied and kept"
			if l.Summary != "" {
				s += " (" + l.Summary + ")"
			}
			switch {
			case failed == nil || failed.Status != executor.ResultFailed:
				// stopped, cancelled or unknown later: nothing was rolled back at all
			case strings.HasPrefix(failed.Rollback, "not rolled back"):
				s += ": nothing is rolled back (policy: none)"
			default:
				s += ": a failed run undoes only the layer that failed (policy: failed-layer)"
			}
			items = append(items, s)
		case executor.ResultFailed:
			items = append(items, t+": "+failedLeft(l, r.ID))
		case executor.ResultUnknown:
			s := fmt.Sprintf("outcome of run %s unknown in %s: ", r.ID, t)
			if c := e.outcomeCheck(ctx, r, key); c != nil {
				s += "checked at " + c.At.UTC().Format("Jan 02 15:04 UTC") + ": " + c.Text
			} else {
				s += "drift check pending"
				if l.Check != "" {
					s += " · check by hand with " + l.Check
				}
			}
			items = append(items, s)
		case executor.ResultCancelled, executor.ResultRunning:
			items = append(items, t+": cut short mid-apply, not rolled back: what it applied before stays")
		case executor.ResultHalted:
			items = append(items, t+": stopped before changing anything")
		case executor.ResultNotStarted:
			items = append(items, t+": not started")
		}
	}
	return items
}

// failedLeft says what a failed layer left: nothing when its rollback worked, what it had
// applied when the policy kept it or the rollback itself failed.
func failedLeft(l executor.LayerResult, runID string) string {
	switch {
	case l.RolledBack:
		return "failed and rolled back: " + l.Rollback
	case strings.HasPrefix(l.Rollback, "not rolled back"):
		return "failed, " + l.Rollback + ": what it applied before failing stays"
	case strings.HasPrefix(l.Rollback, "rollback failed"):
		return "failed, and its rollback failed too: what it applied may remain (@eos why " + runID + " has the error whole)"
	}
	return "failed: " + render.CutForPost(l.Error, 200, runID)
}
