package web

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// chartDays is how far back a service's drift chart reaches.
const chartDays = 30

// visibleDeployed lists the deployed services whose declaring run the person may see.
func (s *server) visibleDeployed(v *viewer) ([]*store.Deployed, error) {
	all, err := s.st.AllDeclared(v.ctx)
	if err != nil {
		return nil, err
	}
	var out []*store.Deployed
	for _, d := range all {
		if v.planID(d.RunID) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b *store.Deployed) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// serviceRow is a deployed service with its declared values (flags and arguments; secret
// flags are never among them).
type serviceRow struct {
	D      *store.Deployed
	Env    string
	Name   string
	Values []keyValue
	Drift  string // the last check's status, "never checked", or "applied" (driftState)
	// DriftNote says more about Drift when it needs it: which run applied the service after
	// the last check found drift.
	DriftNote string
}

type keyValue struct{ Key, Value string }

func rowOf(ctx context.Context, s *server, d *store.Deployed) serviceRow {
	row := serviceRow{D: d, Env: d.Spec.Env, Name: d.Spec.Target, Drift: "never checked"}
	if env, name, ok := strings.Cut(d.Key, "/"); ok {
		row.Env, row.Name = env, name
	}
	for _, u := range d.Spec.Units {
		for _, k := range slices.Sorted(maps.Keys(u.Values)) {
			row.Values = append(row.Values, keyValue{k, u.Values[k]})
		}
	}
	row.Drift, row.DriftNote = driftState(ctx, s.st, d)
	return row
}

// driftState is a deployed service's drift as the status page shows it: the last check's
// status, unless that check found drift (or could not tell) and a run applied the service
// after it; the successful run made the declared state real again, so the page says
// "applied" and which run, not a drift that a reconcile already undid.
func driftState(ctx context.Context, st *store.Store, d *store.Deployed) (status, note string) {
	last, err := st.DriftHistory(ctx, d.Key, 1)
	if err != nil || len(last) == 0 {
		return "never checked", ""
	}
	rec := last[0]
	if rec.Status != string(executor.DriftClean) && rec.At.Before(d.At) {
		return "applied", fmt.Sprintf("run %s applied the declared state %s, after the last check found it %s; not checked since",
			d.RunID, d.At.UTC().Format("2006-01-02 15:04 UTC"), rec.Status)
	}
	return rec.Status, ""
}

func (s *server) services(w http.ResponseWriter, r *http.Request, v *viewer) {
	deployed, err := s.visibleDeployed(v)
	if err != nil {
		s.fail(w, r, "listing services", err)
		return
	}
	rows := make([]serviceRow, 0, len(deployed))
	for _, d := range deployed {
		rows = append(rows, rowOf(r.Context(), s, d))
	}
	s.render(w, r, http.StatusOK, "services", v, rows)
}

type serviceData struct {
	serviceRow
	Chart  chart
	Checks []store.DriftRecord // newest first
}

func (s *server) service(w http.ResponseWriter, r *http.Request, v *viewer) {
	key := r.PathValue("env") + "/" + r.PathValue("name")
	d, err := s.st.Declared(r.Context(), key)
	if errors.Is(err, store.ErrNotFound) || err == nil && (d.Destroyed || !v.planID(d.RunID)) {
		s.notFound(w, r, v, "There is no deployed service here that you may see.")
		return
	}
	if err != nil {
		s.fail(w, r, "reading a service", err)
		return
	}
	hist, err := s.st.DriftHistory(r.Context(), key, 0)
	if err != nil {
		s.fail(w, r, "reading drift history", err)
		return
	}
	from := s.now().Add(-chartDays * 24 * time.Hour)
	hist = slices.DeleteFunc(hist, func(rec store.DriftRecord) bool { return rec.At.Before(from) })
	checks := slices.Clone(hist)
	slices.Reverse(checks)
	s.render(w, r, http.StatusOK, "service", v, serviceData{serviceRow: rowOf(r.Context(), s, d), Chart: driftChart(hist, from, s.now()), Checks: checks})
}
