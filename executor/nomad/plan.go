package nomad

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// jobAction is what Apply does with one unit's job.
type jobAction string

const (
	actionNone        jobAction = "none"
	actionRegisterNew jobAction = "register-new"
	actionRegister    jobAction = "register"
	actionDeregister  jobAction = "deregister"
	// actionReschedule has Nomad place again the failed allocations of a job that is as
	// declared: a reconcile's answer to drift no job change fixes (reschedule.go).
	actionReschedule jobAction = "reschedule"
)

// planState is the layer-private part of a LayerPlan.
type planState struct {
	Units []unitPlan `json:"units"`
}

// unitPlan is what Apply does for one unit.
type unitPlan struct {
	Service string    `json:"service"`
	JobID   string    `json:"job_id"`
	Action  jobAction `json:"action"`
	// ModifyIndex is the job modify index the plan was made against (0: there was no job).
	// Apply registers with it enforced, so a job changed since the preview is not overwritten.
	ModifyIndex uint64 `json:"modify_index"`
	// JobSHA256 is the planned job's checksum; Apply parses the job again and refuses a
	// different one.
	JobSHA256 string `json:"job_sha256,omitempty"`
	// Total is how many allocations the job should run when healthy, for progress.
	Total int `json:"total,omitempty"`
	// failures are the scheduler's reasons it cannot place the job's groups ("job
	// gitea-local: cannot place group app (1 allocation): no node has the docker driver"):
	// the plan's Failures, not part of its saved state.
	failures []string
}

// Plan has Nomad plan each unit's job (a dry run of the scheduler with a diff against the
// running job), or its removal when the unit is destroyed.
func (l *Layer) Plan(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	lp := executor.LayerPlan{Layer: executor.Nomad}
	if !spec.Has(executor.Nomad) {
		lp.Status, lp.Summary = executor.PlanNothing, "no Nomad part"
		return lp, nil
	}
	var (
		st        planState
		digest    strings.Builder
		summaries []string
	)
	for _, u := range spec.Units {
		if u.Nomad == nil {
			continue
		}
		up, plans, summary, err := l.planUnit(ctx, spec.Env, u, spec.Verb == "reconcile" && !spec.Adopt)
		if err != nil {
			return executor.LayerPlan{Layer: executor.Nomad}, err
		}
		st.Units = append(st.Units, up)
		if !spec.Adopt { // an adopt registers nothing, so nothing needs placing
			lp.Failures = append(lp.Failures, up.failures...)
		}
		for _, p := range plans {
			lp.Changes = append(lp.Changes, p.change)
		}
		digest.WriteString(unitDigest(u.Key(spec.Env), up, plans))
		if up.Action != actionNone {
			summaries = append(summaries, summary)
		}
	}
	state, err := json.Marshal(st)
	if err != nil {
		return executor.LayerPlan{Layer: executor.Nomad}, fmt.Errorf("encoding the nomad plan state: %w", err)
	}
	lp.Digest, lp.State = digest.String(), state
	if spec.Adopt {
		// An adopt declares the jobs as they run: nothing is registered, and the declared
		// state changes all the same.
		lp.Changes, summaries = adoptChanges(spec, st)
	}
	if len(summaries) > 0 {
		lp.Status, lp.Summary = executor.PlanChanges, strings.Join(summaries, "; ")
	} else {
		lp.Status, lp.Summary = executor.PlanNoChanges, "no changes"
	}
	return lp, nil
}

// planUnit plans one unit: its group changes and its summary line. A reconcile of a job that
// is as declared reschedules its failed allocations, if it has any.
func (l *Layer) planUnit(ctx context.Context, env string, u executor.Unit, reconcile bool) (unitPlan, []groupPlan, string, error) {
	if u.Destroy {
		return l.planRemoval(ctx, env, u)
	}
	dj, err := l.parseJob(ctx, env, u)
	if err != nil {
		return unitPlan{}, nil, "", err
	}
	cur, err := l.currentJob(ctx, dj.id)
	if err != nil {
		return unitPlan{}, nil, "", err
	}
	if err := checkOwned(cur, u.Service, env); err != nil {
		return unitPlan{}, nil, "", err
	}
	resp, _, err := l.client.Jobs().Plan(dj.job, true, l.write(ctx))
	if err != nil {
		return unitPlan{}, nil, "", fmt.Errorf("planning nomad job %s: %w", dj.id, cleanAPIError(err))
	}
	if resp.Warnings != "" {
		l.log.Warn("nomad job plan warnings", "job", dj.id, "warnings", resp.Warnings)
	}
	up := unitPlan{Service: u.Service, JobID: dj.id, ModifyIndex: resp.JobModifyIndex, JobSHA256: dj.sum, Total: totalCount(dj.job)}
	plans := groupPlans(u.Service, dj.id, dj.job, resp.Diff)
	switch {
	case resp.Diff != nil && resp.Diff.Type == diffAdded:
		up.Action = actionRegisterNew
	case restarts(resp.Diff):
		// A stopped job starts again: for the reader it is new, group by group.
		up.Action = actionRegisterNew
		for i, p := range plans {
			n := groupCount(dj.job, groupOf(p.change.Address))
			plans[i].change.Action, plans[i].change.Detail = executor.Create, "starts again, "+allocs(n)
		}
	case len(plans) > 0:
		up.Action = actionRegister
	default:
		up.Action = actionNone
	}
	if up.Action == actionNone && reconcile && cur != nil && !deref(cur.Stop) {
		failed, err := l.allocationDrift(ctx, u.Service, dj.id, deref(cur.Version))
		if err != nil {
			return unitPlan{}, nil, "", err
		}
		if failed = reschedulable(cur, failed); len(failed) > 0 {
			up.Action, plans = actionReschedule, reschedulePlans(failed)
		}
	}
	markDataLoss(plans, u.Nomad.HoldsData) // risk.go
	failures := l.placementFailures(ctx, dj.job, resp.FailedTGAllocs)
	for _, f := range failures {
		up.failures = append(up.failures, "job "+dj.id+": "+f)
	}
	for i := range plans {
		for _, f := range failures {
			if strings.HasPrefix(f, "cannot place group "+groupOf(plans[i].change.Address)+" ") {
				plans[i].change.Detail += " — " + f
			}
		}
	}
	return up, plans, jobSummary(dj.id, up.Action, dj.job, plans, failures), nil
}

// planRemoval plans deregistering a destroyed unit's job; a job that is gone or stopped
// needs nothing, and a running job that is not Eos's for the unit is refused.
func (l *Layer) planRemoval(ctx context.Context, env string, u executor.Unit) (unitPlan, []groupPlan, string, error) {
	id, err := unitJobID(u.Service, env)
	if err != nil {
		return unitPlan{}, nil, "", err
	}
	up := unitPlan{Service: u.Service, JobID: id, Action: actionNone}
	job, err := l.currentJob(ctx, id)
	if err != nil || job == nil || deref(job.Stop) {
		return up, nil, "", err
	}
	if err := checkOwned(job, u.Service, env); err != nil {
		return unitPlan{}, nil, "", err
	}
	up.Action, up.ModifyIndex = actionDeregister, deref(job.JobModifyIndex)
	var plans []groupPlan
	for _, tg := range job.TaskGroups {
		if tg == nil {
			continue
		}
		name := deref(tg.Name)
		plans = append(plans, groupPlan{
			change: executor.Change{Unit: u.Service, Action: executor.Delete, Address: id + "/" + name,
				Detail: "stops " + allocs(deref(tg.Count)), Nomad: removedGroupData(id, tg)},
			phrase: "remove group " + name,
		})
	}
	markDataLoss(plans, u.Nomad.HoldsData)
	return up, plans, jobSummary(id, up.Action, job, plans, nil), nil
}

// unitDigest is a stable text of exactly what Apply does for one unit, bound to the job modify
// index the plan was made against and to the planned job's checksum.
func unitDigest(key string, up unitPlan, plans []groupPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "nomad %s: %s job %s at modify index %d", key, up.Action, up.JobID, up.ModifyIndex)
	if up.JobSHA256 != "" {
		fmt.Fprintf(&b, " sha256:%s", up.JobSHA256)
	}
	b.WriteString("\n")
	for _, p := range plans {
		fmt.Fprintf(&b, "  %s %s: %s\n", p.change.Action, p.change.Address, p.change.Detail)
	}
	return b.String()
}

// decodeState reads the layer-private plan state.
func decodeState(raw json.RawMessage) (planState, error) {
	var st planState
	if len(raw) == 0 {
		return st, fmt.Errorf("the nomad plan has no saved state; plan again")
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, fmt.Errorf("reading the nomad plan state: %w", err)
	}
	return st, nil
}

// unitOf finds the unit for service in spec.
func unitOf(spec *executor.Spec, service string) (executor.Unit, bool) {
	if spec == nil {
		return executor.Unit{}, false
	}
	for _, u := range spec.Units {
		if u.Service == service {
			return u, true
		}
	}
	return executor.Unit{}, false
}

// restarts reports whether a plan starts a stopped job again.
func restarts(d *api.JobDiff) bool {
	if d == nil {
		return false
	}
	for _, f := range d.Fields {
		if f != nil && f.Name == "Stop" && f.Old == "true" && f.New == "false" {
			return true
		}
	}
	return false
}

// groupOf is the group in a change address "job/group".
func groupOf(address string) string {
	_, g, _ := strings.Cut(address, "/")
	return g
}
