package bot

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// The digest checks first a service whose latest run has an outcome Eos did not see, until a
// check of it is recorded; then it takes its usual place.
func TestDigestChecksAServiceWithAnUnknownOutcomeFirst(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "eos.db"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := &Engine{st: st, log: slog.New(slog.DiscardHandler)}
	t0 := time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC)
	run := &store.Run{ID: "5e1f0a2b", State: store.RunRunning, Verb: "update", Target: "grafana", Env: "local", Started: t0}
	if err := st.StartRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	lost := []executor.LayerResult{{Layer: executor.Salt, Status: executor.ResultUnknown, Error: "outcome unknown: salt-api not answering for 2m0s"}}
	if _, err := st.FinishRun(context.Background(), run.ID, store.RunFailed, lost, t0.Add(time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	todo := []*store.Deployed{{Key: "local/authentik"}, {Key: "local/grafana"}, {Key: "local/jenkins"}}
	order := func() []string {
		var keys []string
		for _, d := range e.outcomesFirst(context.Background(), todo) {
			keys = append(keys, d.Key)
		}
		return keys
	}
	if got := order(); got[0] != "local/grafana" || len(got) != 3 {
		t.Errorf("digest order = %v, want local/grafana first", got)
	}
	if err := st.RecordDrift(context.Background(), []store.DriftRecord{{Key: "local/grafana", At: t0.Add(2 * time.Minute), Status: "clean"}}); err != nil {
		t.Fatal(err)
	}
	if got := order(); got[0] != "local/authentik" {
		t.Errorf("digest order after a check = %v, want the usual order", got)
	}
}
