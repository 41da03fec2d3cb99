package nomad

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/eosbot/eos/executor"
)

// Drift compares each unit's job in Nomad with spec: a job missing or stopped, a plan of the
// declared job that is not a no-op (someone registered a different job), and failed or lost
// allocations of the running version (not replaced by Nomad) are drift. A destroyed unit whose
// job still runs is drift too. When a check itself fails the status is DriftUnknown and the
// error says why (other units' changes are still listed); it is never reported clean.
func (l *Layer) Drift(ctx context.Context, spec executor.Spec) (executor.LayerDrift, error) {
	d := executor.LayerDrift{Layer: executor.Nomad}
	if !spec.Has(executor.Nomad) {
		d.Status, d.Reason = executor.DriftSkipped, "no Nomad part"
		return d, nil
	}
	var errs []error
	for _, u := range spec.Units {
		if u.Nomad == nil {
			continue
		}
		changes, err := l.driftUnit(ctx, spec.Env, u)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		d.Changes = append(d.Changes, changes...)
	}
	switch {
	case len(errs) > 0:
		err := errors.Join(errs...)
		d.Status, d.Reason = executor.DriftUnknown, err.Error()
		return d, err
	case len(d.Changes) > 0:
		d.Status = executor.DriftDrifted
	default:
		d.Status = executor.DriftClean
	}
	return d, nil
}

func (l *Layer) driftUnit(ctx context.Context, env string, u executor.Unit) ([]executor.Change, error) {
	id, err := unitJobID(u.Service, env)
	if err != nil {
		return nil, err
	}
	cur, err := l.currentJob(ctx, id)
	if err != nil {
		return nil, err
	}
	job := func(a executor.Action, detail string) []executor.Change {
		return []executor.Change{{Unit: u.Service, Action: a, Address: id, Detail: detail}}
	}
	switch {
	case u.Destroy && cur != nil && !deref(cur.Stop):
		return job(executor.Delete, "still running; declared destroyed"), nil
	case u.Destroy:
		return nil, nil
	case cur != nil && !ownedBy(cur, u.Service, env):
		return job(executor.Update, "replaced outside Eos: the job's meta does not say Eos owns it for "+u.Service+" in "+env+"; Eos will not change it"), nil
	case cur == nil:
		return job(executor.Create, "declared but missing from Nomad"), nil
	case deref(cur.Stop):
		return job(executor.Create, "declared but stopped outside Eos"), nil
	}
	dj, err := l.parseJob(ctx, env, u)
	if err != nil {
		return nil, err
	}
	resp, _, err := l.client.Jobs().Plan(dj.job, true, l.write(ctx))
	if err != nil {
		return nil, fmt.Errorf("planning nomad job %s: %w", id, cleanAPIError(err))
	}
	var changes []executor.Change
	if resp.Diff != nil && resp.Diff.Type != diffNone {
		for _, p := range groupPlans(u.Service, id, dj.job, resp.Diff) {
			c := p.change
			c.Detail = "differs from the declaration; applying it means " + c.Detail
			changes = append(changes, c)
		}
	}
	health, err := l.allocationDrift(ctx, u.Service, id, deref(cur.Version))
	if err != nil {
		return nil, err
	}
	return append(changes, health...), nil
}

// allocationDrift lists, per task group, the allocations of the running version that failed
// or were lost and that Nomad did not replace: one it rescheduled is stopped (desired status
// stop) and names its replacement.
func (l *Layer) allocationDrift(ctx context.Context, unit, id string, version uint64) ([]executor.Change, error) {
	stubs, _, err := l.client.Jobs().Allocations(id, false, l.query(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading the allocations of nomad job %s: %w", id, err)
	}
	type bad struct {
		n      int
		status map[string]bool
		why    string
	}
	groups := map[string]*bad{}
	for _, a := range stubs {
		if a == nil || a.JobVersion != version || a.NextAllocation != "" || a.DesiredStatus != "run" ||
			(a.ClientStatus != allocFailed && a.ClientStatus != allocLost) {
			continue
		}
		b := groups[a.TaskGroup]
		if b == nil {
			b = &bad{status: map[string]bool{}}
			groups[a.TaskGroup] = b
		}
		b.n++
		b.status[a.ClientStatus] = true
		if b.why == "" {
			b.why = taskFailure(a.TaskStates)
		}
	}
	var out []executor.Change
	for _, g := range sortedKeys(groups) {
		b := groups[g]
		statuses := sortedKeys(b.status)
		sort.Strings(statuses)
		detail := fmt.Sprintf("%s %s", allocs(b.n), strings.Join(statuses, " or "))
		if b.why != "" {
			detail += " (" + b.why + ")"
		}
		out = append(out, executor.Change{Unit: unit, Action: executor.Update, Address: id + "/" + g, Detail: detail})
	}
	return out, nil
}
