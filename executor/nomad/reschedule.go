package nomad

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// Rescheduling a job's failed allocations.
//
// A job can be exactly as declared and still not run: an allocation failed (its task exited,
// its node went away) and Nomad's reschedule policy left it failed. Drift reports it, but
// registering the job again changes nothing, so a reconcile of it had nothing to apply. A
// reconcile now plans what an operator would do (`nomad job eval -force-reschedule`): Nomad
// places the failed allocations again, under the same job version, and the run follows the
// replacements until they have run for the job's min_healthy_time. The job itself is not changed, so a failed reschedule has
// nothing to roll back. Nomad forces a reschedule only in a group whose reschedule policy
// allows rescheduling at all (attempts, or unlimited): a group that forbids it is left to the
// drift answer, which names it and plans nothing.

// reschedulePlans are the group changes of a reschedule, one per task group with failed or
// lost allocations (failed: allocationDrift's changes, "1 allocation failed (…)").
func reschedulePlans(failed []executor.Change) []groupPlan {
	plans := make([]groupPlan, 0, len(failed))
	for _, c := range failed {
		again := "it"
		if !strings.HasPrefix(c.Detail, "1 allocation ") {
			again = "them"
		}
		phrase := "reschedule group " + groupOf(c.Address) + ": " + c.Detail // the approver reads why
		c.Detail += "; Nomad places " + again + " again"
		plans = append(plans, groupPlan{change: c, phrase: phrase})
	}
	return plans
}

// reschedulable are the changes of failed (allocationDrift's) whose task group in job allows
// rescheduling, so that Nomad places its failed allocations again when forced.
func reschedulable(job *api.Job, failed []executor.Change) []executor.Change {
	var out []executor.Change
	for _, c := range failed {
		for _, tg := range job.TaskGroups {
			if tg == nil || deref(tg.Name) != groupOf(c.Address) || tg.ReschedulePolicy == nil {
				continue
			}
			if rp := tg.ReschedulePolicy; deref(rp.Unlimited) || deref(rp.Attempts) > 0 {
				out = append(out, c)
			}
		}
	}
	return out
}

// reschedule has Nomad place the failed allocations of a unit's job again, refusing when the
// job changed since the plan or is not Eos's for the unit, and follows the replacements until
// they have run for the job's min_healthy_time (holdHealthy).
func (l *Layer) reschedule(ctx context.Context, env string, up unitPlan, emit *emitter) (string, error) {
	wctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	rt := newRetrier(emit)
	cur, err := l.jobAsPlanned(wctx, env, up, rt) // a job stopped since has another modify index
	if err != nil {
		return up.JobID + " not rescheduled", err
	}
	v := deref(cur.Version)
	// The job is not changed: a rollback finds it as it was (rollback.go).
	l.remember(up.JobID, appliedJob{version: v, prior: &v})
	emit.send(0, "rescheduling")
	var evalID string
	err = rt.do(wctx, func(c context.Context) (err error) {
		evalID, _, err = l.client.Jobs().EvaluateWithOpts(up.JobID, api.EvalOptions{ForceReschedule: true}, l.write(c))
		return err
	})
	if err != nil {
		return up.JobID + " not rescheduled", unknownIfLost(fmt.Errorf("rescheduling the failed allocations of nomad job %s: %w", up.JobID, cleanAPIError(err)),
			"the reschedule of job "+up.JobID, l.checkCommand(up.JobID, ""))
	}
	if _, err := l.waitEval(wctx, evalID, rt); err != nil {
		return up.JobID + " rescheduling", unknownIfLost(l.timedOut(ctx, wctx, up.JobID, "to be evaluated", err), "the reschedule of job "+up.JobID, l.checkCommand(up.JobID, ""))
	}
	status, err := l.watchAllocations(ctx, wctx, cur, up.Total, emit, rt)
	if err == nil {
		if err = l.holdHealthy(ctx, wctx, cur, emit, rt); err == nil {
			status = strings.Replace(status, "running", "healthy", 1)
		}
	}
	return up.JobID + " " + status, unknownIfLost(err, "the reschedule of job "+up.JobID, l.checkCommand(up.JobID, ""))
}

// holdHealthy waits, once the replacements run, for the job's own min_healthy_time (the
// longest of its groups'), as its deployments do, and fails as soon as an allocation of the
// version fails or is lost meanwhile: a reschedule makes no deployment to judge its health, and
// a task that exits a second after it started has not fixed anything.
func (l *Layer) holdHealthy(ctx, wctx context.Context, job *api.Job, emit *emitter, rt *retrier) error {
	var hold time.Duration
	for _, tg := range job.TaskGroups {
		if tg != nil && tg.Update != nil && tg.Update.MinHealthyTime != nil {
			hold = max(hold, *tg.Update.MinHealthyTime)
		}
	}
	id, version := deref(job.ID), deref(job.Version)
	until := time.Now().Add(hold)
	var index uint64
	for left := hold; left > 0; left = time.Until(until) {
		var (
			stubs []*api.AllocationListStub
			qm    *api.QueryMeta
		)
		err := rt.do(wctx, func(c context.Context) (err error) {
			stubs, qm, err = l.client.Jobs().Allocations(id, false, (&api.QueryOptions{WaitIndex: index, WaitTime: left}).WithContext(c))
			return err
		})
		if err != nil {
			return l.timedOut(ctx, wctx, id, "to stay running", err)
		}
		for _, a := range stubs {
			if a == nil || a.JobVersion != version || a.DesiredStatus != "run" || (a.ClientStatus != allocFailed && a.ClientStatus != allocLost) {
				continue
			}
			return failedAllocError(id, a, fmt.Sprintf(" within %s of starting again", hold))
		}
		index = qm.LastIndex
	}
	return nil
}
