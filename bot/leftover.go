package bot

import (
	"context"
	"strings"

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

// outcomeCheck is the recorded check of run r's unknown outcome, or nil while it is pending
// (render.LeftItems says which). A drift check of the service recorded after the run counts
// too.
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
