package nomad

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// appliedJob is what Apply did to one job, for Rollback.
type appliedJob struct {
	// version is the job version Apply registered (or stopped).
	version uint64
	// prior is the version that ran before, nil when the job was new or stopped.
	prior *uint64
	// deregistered is true when Apply stopped the job.
	deregistered bool
}

// Apply registers (or deregisters) each unit's job exactly as planned, in spec order, with the
// planned job modify index enforced, then follows the evaluation and the deployment (or the
// allocations) until the job is healthy or Config.DeployTimeout passes. It stops at the first
// unit that fails. When the agent stopped answering after a job version was handed over and
// was not back before the deadline, the result is ResultUnknown and the error an
// executor.UnknownError (see the package doc). obs is told from Apply's goroutine only,
// never after it returned.
func (l *Layer) Apply(ctx context.Context, spec executor.Spec, plan executor.LayerPlan, obs executor.Observer) (executor.LayerResult, error) {
	obs = executor.Heard(obs)
	start := time.Now()
	res := executor.LayerResult{Layer: executor.Nomad}
	if plan.Status != executor.PlanChanges {
		res.Status, res.Summary = executor.ResultSkipped, "no changes"
		return res, nil
	}
	st, err := decodeState(plan.State)
	if err != nil {
		res.Status, res.Error, res.Summary = executor.ResultFailed, err.Error(), "nothing applied"
		return res, err
	}
	for _, up := range st.Units {
		if up.Action != actionNone {
			res.Total++
		}
	}
	var summaries []string
	for _, up := range st.Units {
		if up.Action == actionNone {
			continue
		}
		u, ok := unitOf(&spec, up.Service)
		if !ok || u.Nomad == nil {
			err = fmt.Errorf("%w: the plan has unit %s, which the spec has no Nomad part for", ErrStalePlan, up.Service)
		} else {
			var summary string
			emit := newEmitter(obs.Event, up)
			emit.output = func(line string) { obs.Output(executor.Nomad, line) }
			summary, err = l.applyUnit(ctx, spec.Env, u, up, emit)
			summaries = append(summaries, summary)
		}
		if err != nil {
			res.Status, res.Error, res.Elapsed = executor.ResultFailed, err.Error(), time.Since(start)
			var unknown *executor.UnknownError
			if errors.As(err, &unknown) {
				res.Status, res.Error, res.Check = executor.ResultUnknown, unknown.Message(), unknown.Check
			}
			res.Failed = &executor.Change{Unit: up.Service, Action: actionOf(up.Action), Address: up.JobID}
			res.Summary = strings.Join(summaries, "; ")
			return res, err
		}
		res.Done++
	}
	res.Status, res.Summary, res.Elapsed = executor.ResultOK, strings.Join(summaries, "; "), time.Since(start)
	if spec.Adopt && res.Summary == "" {
		res.Summary = "declared as it runs, nothing registered"
	}
	return res, nil
}

// applyUnit carries out one unit's plan and returns its result line ("nextcloud-local 2/2
// healthy"); after a failure the line says how far it got.
func (l *Layer) applyUnit(ctx context.Context, env string, u executor.Unit, up unitPlan, emit *emitter) (string, error) {
	log := executor.Log(ctx, l.log).With("unit", u.Key(env), "job", up.JobID)
	switch up.Action {
	case actionDeregister:
		return l.deregister(ctx, env, up, emit)
	case actionReschedule:
		return l.reschedule(ctx, env, up, emit)
	}
	// Until the job is registered nothing is handed over: an agent that does not come back
	// within DeployTimeout fails the unit with nothing registered.
	rt := newRetrier(emit)
	pctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	var dj desiredJob
	err := rt.do(pctx, func(c context.Context) (err error) {
		dj, err = l.parseJob(c, env, u)
		return err
	})
	if err != nil {
		return up.JobID + " not registered", err
	}
	if dj.id != up.JobID || dj.sum != up.JobSHA256 {
		return up.JobID + " not registered", fmt.Errorf("%w: job %s parses differently now (template, values or agent changed); plan again", ErrStalePlan, up.JobID)
	}
	var prior *api.Job
	err = rt.do(pctx, func(c context.Context) (err error) {
		prior, err = l.currentJob(c, dj.id)
		return err
	})
	if err == nil {
		err = checkOwned(prior, u.Service, env)
	}
	if err != nil {
		return up.JobID + " not registered", err
	}
	emit.send(0, "registering")
	resp, err := l.register(pctx, dj, up.ModifyIndex, rt)
	if isIndexConflict(err) {
		now := uint64(0)
		if cur, cerr := l.currentJob(ctx, dj.id); cerr == nil && cur != nil {
			now = deref(cur.JobModifyIndex)
		}
		return up.JobID + " not registered", &ChangedError{Job: dj.id, Planned: up.ModifyIndex, Now: now}
	}
	if err != nil {
		return up.JobID + " not registered", fmt.Errorf("registering nomad job %s: %w", dj.id, cleanAPIError(err))
	}
	var job *api.Job
	err = rt.do(pctx, func(c context.Context) (err error) {
		job, err = l.jobAt(c, dj.id, resp.JobModifyIndex)
		return err
	})
	if err != nil {
		return up.JobID + " registered", unknownIfLost(err, "the new version of job "+dj.id, l.checkCommand(dj.id, ""))
	}
	rec := appliedJob{version: deref(job.Version)}
	if prior != nil && !deref(prior.Stop) {
		v := deref(prior.Version)
		rec.prior = &v
	}
	l.remember(dj.id, rec)
	log.Info("registered nomad job", "version", rec.version, "eval", resp.EvalID)
	status, err := l.follow(ctx, job, resp.EvalID, up.Total, emit)
	return dj.id + " " + status, err
}

// jobAsPlanned reads unit plan up's job as it is now, refusing one that is not Eos's for the
// unit, and one that is gone or changed since the plan (a ChangedError): a deregister or a
// reschedule acts on the job the approver saw, or not at all.
func (l *Layer) jobAsPlanned(ctx context.Context, env string, up unitPlan, rt *retrier) (*api.Job, error) {
	cur, err := l.currentJobRetried(ctx, up.JobID, rt)
	if err == nil {
		err = checkOwned(cur, up.Service, env)
	}
	if err != nil {
		return nil, err
	}
	if cur == nil || deref(cur.JobModifyIndex) != up.ModifyIndex {
		now := uint64(0)
		if cur != nil {
			now = deref(cur.JobModifyIndex)
		}
		return nil, &ChangedError{Job: up.JobID, Planned: up.ModifyIndex, Now: now}
	}
	return cur, nil
}

// deregister stops a job, refusing when it changed since the plan or is not Eos's for the
// unit, and waits for its allocations to stop.
func (l *Layer) deregister(ctx context.Context, env string, up unitPlan, emit *emitter) (string, error) {
	wctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	rt := newRetrier(emit)
	cur, err := l.jobAsPlanned(wctx, env, up, rt)
	if err != nil {
		return up.JobID + " not stopped", err
	}
	emit.send(0, "stopping")
	v := deref(cur.Version)
	// Stopping a job twice stops it once: the call is repeated while the agent does not answer.
	var evalID string
	err = rt.do(wctx, func(c context.Context) (err error) {
		evalID, _, err = l.client.Jobs().Deregister(up.JobID, false, l.write(c))
		return err
	})
	if err != nil {
		return up.JobID + " not stopped", unknownIfLost(fmt.Errorf("deregistering nomad job %s: %w", up.JobID, err),
			"the stop of job "+up.JobID, l.checkCommand(up.JobID, ""))
	}
	l.remember(up.JobID, appliedJob{version: v, prior: &v, deregistered: true})
	if _, err := l.waitEval(wctx, evalID, rt); err != nil {
		return up.JobID + " stopping", unknownIfLost(l.timedOut(ctx, wctx, up.JobID, "to stop", err), "the stop of job "+up.JobID, l.checkCommand(up.JobID, ""))
	}
	if err := l.waitStopped(wctx, up.JobID, v, emit, rt); err != nil {
		return up.JobID + " stopping", unknownIfLost(l.timedOut(ctx, wctx, up.JobID, "to stop", err), "the stop of job "+up.JobID, l.checkCommand(up.JobID, ""))
	}
	return up.JobID + " stopped", nil
}

// jobAt reads a job and checks it is the version a write at modifyIndex made.
func (l *Layer) jobAt(ctx context.Context, id string, modifyIndex uint64) (*api.Job, error) {
	job, _, err := l.client.Jobs().Info(id, (&api.QueryOptions{WaitIndex: modifyIndex - 1}).WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("reading nomad job %s after registering it: %w", id, err)
	}
	if got := deref(job.JobModifyIndex); got != modifyIndex {
		return nil, fmt.Errorf("nomad job %s was changed again right after Eos registered it (index %d → %d)", id, modifyIndex, got)
	}
	return job, nil
}

func (l *Layer) remember(id string, rec appliedJob) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.applied[id] = rec
}

// take returns and forgets what the last Apply did to job id.
func (l *Layer) take(id string) (appliedJob, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	rec, ok := l.applied[id]
	delete(l.applied, id)
	return rec, ok
}

// actionOf is the preview's action for a job action.
func actionOf(a jobAction) executor.Action {
	switch a {
	case actionRegisterNew:
		return executor.Create
	case actionDeregister:
		return executor.Delete
	case actionRegister, actionReschedule:
		return executor.Update
	}
	return executor.NoOp
}

// totalCount is how many allocations a job runs: the sum of its groups' counts.
func totalCount(job *api.Job) int {
	n := 0
	for _, tg := range job.TaskGroups {
		if tg == nil {
			continue
		}
		if tg.Count == nil {
			n++
		} else {
			n += *tg.Count
		}
	}
	return n
}
