package nomad

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// Rollback undoes a failed or partial apply of spec, unit by unit in reverse order. A job the
// apply registered is reverted to its newest stable version older than the failed one (or,
// when no version was ever stable, to the version that ran before the apply); a job that
// was new and never stable is stopped. A job the apply stopped is started again at the
// version it ran. A job someone (or Nomad's own auto_revert) changed after the failed
// version is left as it is. previous is not needed: Nomad keeps the job versions itself.
//
// What the last Apply registered is remembered in memory; after a restart Rollback treats
// the job's current version as the failed one unless it is stable.
func (l *Layer) Rollback(ctx context.Context, spec executor.Spec, previous *executor.Spec, obs executor.Observer) (string, error) {
	obs = executor.Heard(obs)
	var notes []string
	for i := len(spec.Units) - 1; i >= 0; i-- {
		u := spec.Units[i]
		if u.Nomad == nil {
			continue
		}
		id, err := unitJobID(u.Service, spec.Env)
		if err != nil {
			return "", err
		}
		rec, known := l.take(id)
		emit := newEmitter(obs.Event, unitPlan{Service: u.Service, JobID: id, Action: actionRegister})
		o := owner{id: id, service: u.Service, env: spec.Env}
		note, err := l.rollbackUnit(ctx, o, rec, known, u.Destroy, emit)
		if err != nil {
			if len(notes) > 0 {
				return "", fmt.Errorf("%s; %w", strings.Join(notes, "; "), err)
			}
			return "", err
		}
		notes = append(notes, note)
	}
	if len(notes) == 0 {
		return "nothing to roll back in Nomad", nil
	}
	return strings.Join(notes, "; "), nil
}

// owner is a unit's job ID with the service and environment that own it.
type owner struct{ id, service, env string }

// rollbackUnit undoes what Apply did to one unit's job. Calls the agent does not answer are
// repeated within DeployTimeout (the agent restarting must not leave a failed version
// running); reverts and stops are never sent twice.
func (l *Layer) rollbackUnit(ctx context.Context, o owner, rec appliedJob, known, destroy bool, emit *emitter) (string, error) {
	wctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	rt := newRetrier(emit)
	if destroy {
		return l.restart(ctx, wctx, o, rec, known, emit, rt)
	}
	return l.rollbackJob(ctx, wctx, o, rec, known, emit, rt)
}

// currentJobRetried is currentJob, repeated while the agent does not answer.
func (l *Layer) currentJobRetried(ctx context.Context, id string, rt *retrier) (*api.Job, error) {
	var job *api.Job
	err := rt.do(ctx, func(c context.Context) (err error) {
		job, err = l.currentJob(c, id)
		return err
	})
	return job, err
}

// rollbackJob undoes the registration of a failed job version.
func (l *Layer) rollbackJob(ctx, wctx context.Context, o owner, rec appliedJob, known bool, emit *emitter, rt *retrier) (string, error) {
	id := o.id
	cur, err := l.currentJobRetried(wctx, id, rt)
	switch {
	case err != nil:
		return "", err
	case cur != nil:
		if err := checkOwned(cur, o.service, o.env); err != nil {
			return "", err
		}
	}
	switch {
	case cur == nil:
		return "job " + id + " does not exist; nothing to roll back", nil
	case deref(cur.Stop):
		return "job " + id + " is stopped; nothing to roll back", nil
	}
	v := deref(cur.Version)
	switch {
	case known && rec.prior != nil && *rec.prior == rec.version:
		return "job " + id + " was not changed", nil
	case known && v != rec.version:
		return fmt.Sprintf("job %s is at version %d, not the failed version %d (Nomad's auto_revert or another change); left as it is", id, v, rec.version), nil
	case !known && deref(cur.Stable):
		return fmt.Sprintf("job %s version %d is stable; nothing to roll back", id, v), nil
	case !known:
		rec = appliedJob{version: v}
	}
	target, ok, err := l.previousStable(wctx, o, rec.version, rt)
	if err != nil {
		return "", err
	}
	if !ok && rec.prior != nil {
		target, ok = *rec.prior, true
	}
	if ok {
		return l.revert(ctx, wctx, cur, target, emit, rt)
	}
	return l.stop(ctx, id, v, emit)
}

// restart undoes a deregistration by reverting the stopped job to the version it ran.
func (l *Layer) restart(ctx, wctx context.Context, o owner, rec appliedJob, known bool, emit *emitter, rt *retrier) (string, error) {
	id := o.id
	cur, err := l.currentJobRetried(wctx, id, rt)
	switch {
	case err != nil:
		return "", err
	case cur != nil:
		if err := checkOwned(cur, o.service, o.env); err != nil {
			return "", err
		}
	}
	switch {
	case cur == nil:
		return "job " + id + " is gone (purged); nothing to restart", nil
	case !deref(cur.Stop):
		return "job " + id + " still runs; nothing to undo", nil
	}
	if known && rec.deregistered && rec.prior != nil {
		return l.revert(ctx, wctx, cur, *rec.prior, emit, rt)
	}
	target, ok, err := l.previousStable(wctx, o, deref(cur.Version)+1, rt)
	if err != nil || !ok {
		return "job " + id + " stays stopped: it has no stable version to restart", err
	}
	return l.revert(ctx, wctx, cur, target, emit, rt)
}

// previousStable is the newest version below before that was stable (deployed healthy), not
// stopped, and Eos's for the unit (a version someone else registered is never brought back).
func (l *Layer) previousStable(ctx context.Context, o owner, before uint64, rt *retrier) (uint64, bool, error) {
	id := o.id
	var versions []*api.Job
	err := rt.do(ctx, func(c context.Context) (err error) {
		versions, _, _, err = l.client.Jobs().Versions(id, false, l.query(c))
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("reading the versions of nomad job %s: %w", id, err)
	}
	best, found := uint64(0), false
	for _, j := range versions {
		v := deref(j.Version)
		if v < before && deref(j.Stable) && !deref(j.Stop) && ownedBy(j, o.service, o.env) && (!found || v > best) {
			best, found = v, true
		}
	}
	return best, found, nil
}

// revert makes target the job's running version again (Nomad registers a copy of it as a new
// version), enforcing that the job is still at cur's version, and waits for it to be healthy.
// A revert whose answer was lost is checked like a registration (see register) before it is
// sent again.
func (l *Layer) revert(ctx, wctx context.Context, cur *api.Job, target uint64, emit *emitter, rt *retrier) (string, error) {
	id, from := deref(cur.ID), deref(cur.Version)
	emit.send(0, fmt.Sprintf("reverting to version %d", target))
	var resp *api.JobRegisterResponse
	unsure := false
	err := rt.do(wctx, func(c context.Context) error {
		if unsure {
			tj, err := l.jobVersion(c, id, target)
			if err != nil {
				return err
			}
			r, ok, err := l.accepted(c, desiredJob{id: id, job: tj}, deref(cur.JobModifyIndex))
			if err != nil || ok {
				resp = r
				return err
			}
		}
		r, _, err := l.client.Jobs().Revert(id, target, &from, l.write(c), "", "")
		if executor.Transient(restarting(err)) {
			unsure = true
		}
		resp = r
		return err
	})
	if err != nil {
		return "", fmt.Errorf("reverting nomad job %s from version %d to %d: %w", id, from, target, err)
	}
	var job *api.Job
	err = rt.do(wctx, func(c context.Context) (err error) {
		job, err = l.jobAt(c, id, resp.JobModifyIndex)
		return err
	})
	if err != nil {
		return "", err
	}
	l.log.Info("reverted nomad job", "job", id, "from", from, "to", target, "version", deref(job.Version))
	status, err := l.follow(ctx, job, resp.EvalID, totalCount(job), emit)
	if err != nil {
		return "", fmt.Errorf("reverted job %s to version %d, but it is not healthy (%s): %w", id, target, status, err)
	}
	return fmt.Sprintf("reverted job %s to version %d (%s)", id, target, status), nil
}

// jobVersion is version v of a job as Nomad keeps it.
func (l *Layer) jobVersion(ctx context.Context, id string, v uint64) (*api.Job, error) {
	versions, _, _, err := l.client.Jobs().Versions(id, false, l.query(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading the versions of nomad job %s: %w", id, err)
	}
	for _, j := range versions {
		if deref(j.Version) == v {
			return j, nil
		}
	}
	return nil, fmt.Errorf("nomad job %s has no version %d any more", id, v)
}

// stop deregisters a job that has no version to go back to, keeping its history for
// inspection, and waits for its allocations to stop.
func (l *Layer) stop(ctx context.Context, id string, version uint64, emit *emitter) (string, error) {
	emit.send(0, "stopping")
	wctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	rt := newRetrier(emit)
	// Stopping a job twice stops it once: the call is repeated while the agent does not answer.
	var evalID string
	err := rt.do(wctx, func(c context.Context) (err error) {
		evalID, _, err = l.client.Jobs().Deregister(id, false, l.write(c))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("stopping nomad job %s: %w", id, err)
	}
	if _, err := l.waitEval(wctx, evalID, rt); err != nil {
		return "", l.timedOut(ctx, wctx, id, "to stop", err)
	}
	if err := l.waitStopped(wctx, id, version, emit, rt); err != nil {
		return "", l.timedOut(ctx, wctx, id, "to stop", err)
	}
	return "stopped job " + id + " (it had no earlier stable version)", nil
}
