package web

import (
	"errors"
	"github.com/eosbot/eos/bot/render"
	"net/http"
	"strings"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// recentRuns is how many finished runs the overview lists.
const recentRuns = 10

type overviewData struct {
	Pending  []*store.Plan
	Running  []*store.Run
	Recent   []*store.Run
	Locks    int
	Drifted  []store.DriftRecord
	Services int
}

func (s *server) overview(w http.ResponseWriter, r *http.Request, v *viewer) {
	d, what, err := s.overviewOf(v)
	if err != nil {
		s.fail(w, r, what, err)
		return
	}
	s.render(w, r, http.StatusOK, "overview", v, d)
}

// overviewOf gathers what the overview shows v; on an error it says what it was doing.
func (s *server) overviewOf(v *viewer) (d overviewData, what string, err error) {
	if d.Pending, err = s.st.OpenPlans(v.ctx, func(p *store.Plan) bool { return p.State == store.PlanPending && v.plan(p) }); err != nil {
		return d, "listing plans", err
	}
	runs, err := s.st.Runs(v.ctx, func(run *store.Run) bool { return v.planID(run.ID) })
	if err != nil {
		return d, "listing runs", err
	}
	for _, run := range runs {
		if run.State == store.RunRunning {
			d.Running = append(d.Running, run)
		} else if len(d.Recent) < recentRuns {
			d.Recent = append(d.Recent, run)
		}
	}
	locks, err := s.visibleLocks(v)
	if err != nil {
		return d, "listing locks", err
	}
	d.Locks = len(locks)
	deployed, err := s.visibleDeployed(v)
	if err != nil {
		return d, "listing services", err
	}
	d.Services = len(deployed)
	for _, dep := range deployed {
		if status, _ := driftState(v.ctx, s.st, dep); status == string(executor.DriftDrifted) {
			if last, err := s.st.DriftHistory(v.ctx, dep.Key, 1); err == nil && len(last) == 1 {
				d.Drifted = append(d.Drifted, last[0])
			}
		}
	}
	return d, "", nil
}

type planData struct {
	P      *store.Plan
	Layers []layerView
	Run    *store.Run
	// Vault is the plan's secrets line, without values; empty when it needs none.
	Vault string
	// Policy are the audit lines of the policy set's decisions on the plan (each with its
	// rule, file:line and the set's SHA-256), oldest first; none without policy_dirs.
	Policy []store.Entry
}

type layerView struct {
	Title, Status, Summary string
	// StatusText is Status in words ("not configured").
	StatusText string
	Changes    []changeView
}

type changeView struct {
	Action, Unit, Address string
	Attrs                 []string
	Forces, Reason, Size  string
	DataLoss              bool
	// Diff is a file's diff, masked by the layer; shown whole.
	Diff string
}

func (s *server) plan(w http.ResponseWriter, r *http.Request, v *viewer) {
	p, err := s.st.Plan(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) || err == nil && !v.plan(p) {
		s.notFound(w, r, v, "There is no plan with this id that you may see.")
		return
	}
	if err != nil {
		s.fail(w, r, "reading a plan", err)
		return
	}
	d := planData{P: p}
	if run, err := s.st.Run(r.Context(), p.ID); err == nil {
		d.Run = run
	}
	for _, lp := range p.Plan.Layers {
		lv := layerView{Title: lp.Layer.Title(), Status: string(lp.Status), StatusText: strings.ReplaceAll(string(lp.Status), "-", " "), Summary: lp.Summary}
		for _, c := range lp.Changes {
			lv.Changes = append(lv.Changes, changeView{Action: string(c.Action), Unit: c.Unit, Address: c.Address,
				Attrs: render.AttrLines(c), Forces: c.Forces, Reason: c.Reason, Size: c.Size, DataLoss: c.DataLoss, Diff: c.Diff})
		}
		d.Layers = append(d.Layers, lv)
	}
	d.Vault = render.VaultSummary(p.Plan)
	if d.Policy, err = s.st.Audit(r.Context(), func(e *store.Entry) bool { return e.PlanID == p.ID && e.Kind == "policy" }); err != nil {
		s.log.Warn("reading a plan's policy decisions", "plan", p.ID, "err", err)
	}
	s.render(w, r, http.StatusOK, "plan", v, d)
}

type runData struct {
	R        *store.Run
	Progress runProgress
}

func (s *server) run(w http.ResponseWriter, r *http.Request, v *viewer) {
	id := r.PathValue("id")
	run, err := s.st.Run(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) || err == nil && !v.planID(id) {
		s.notFound(w, r, v, "There is no run with this id that you may see.")
		return
	}
	if err != nil {
		s.fail(w, r, "reading a run", err)
		return
	}
	p, _ := s.st.Plan(r.Context(), id)
	prog := progressOf(run, p)
	past, _, stop := s.src.Watch(id)
	stop()
	if len(past) == 0 {
		// Run by another replica, or ended a while ago: its output is in the store.
		prog.addStored(s.storedOutput(r.Context(), id, 0))
	}
	for _, u := range past {
		if run.State != store.RunRunning {
			u.Event = executor.Event{} // the store's results are final; keep only the output
		}
		prog.apply(u)
	}
	s.render(w, r, http.StatusOK, "run", v, runData{R: run, Progress: prog})
}
