package nomad

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/nomad/api"
)

// blockingWait is how long one blocking query waits for a change before it is asked again.
const blockingWait = 10 * time.Second

// Nomad's evaluation, deployment and allocation statuses this layer acts on.
const (
	evalPending = "pending"
	evalBlocked = "blocked"
	evalFailed  = "failed"
	evalCancel  = "canceled"

	deploySuccessful = "successful"
	deployFailed     = "failed"
	deployCancelled  = "cancelled"

	allocRunning  = "running"
	allocComplete = "complete"
	allocFailed   = "failed"
	allocLost     = "lost"
	allocPending  = "pending"

	jobTypeBatch = "batch"

	// taskHookFailed is the event type of a failed task hook (template, artifact, …).
	taskHookFailed = "Task hook failed"
)

// follow waits, within Config.DeployTimeout, for the evaluation a write created and then for
// the job version to become healthy: through its deployment when it has one, otherwise
// through its allocations. It returns how far the job got ("2/2 healthy"). Calls the agent
// does not answer are retried until the wait ends; when it ends with the agent still away,
// the error is an executor.UnknownError naming the version and how to check it.
func (l *Layer) follow(ctx context.Context, job *api.Job, evalID string, total int, emit *emitter) (string, error) {
	id := deref(job.ID)
	applied := fmt.Sprintf("version %d of job %s", deref(job.Version), id)
	rt := newRetrier(emit)
	wctx, cancel := context.WithTimeout(ctx, l.timeout)
	defer cancel()
	eval, err := l.waitEval(wctx, evalID, rt)
	if err != nil {
		return "registered", unknownIfLost(l.timedOut(ctx, wctx, id, "to be evaluated", err), applied, l.checkCommand(id, ""))
	}
	if len(eval.FailedTGAllocs) > 0 && eval.BlockedEval != "" && noReadyNode(eval.FailedTGAllocs) {
		// The plan placed it, so the nodes are most likely starting again with their agent:
		// Nomad places it when one is ready.
		emit.note("no Nomad node ready to run it yet, waiting")
		if eval, err = l.waitUnblocked(wctx, eval.BlockedEval, rt); err != nil {
			return "registered", unknownIfLost(l.timedOut(ctx, wctx, id, "for a ready node to place it on", err), applied, l.checkCommand(id, ""))
		}
	}
	if len(eval.FailedTGAllocs) > 0 {
		return "not placed", fmt.Errorf("nomad job %s: %s", id, joinSemi(l.placementFailures(ctx, job, eval.FailedTGAllocs)))
	}
	var d *api.Deployment
	err = rt.do(wctx, func(c context.Context) (err error) {
		d, _, err = l.client.Jobs().LatestDeployment(id, l.query(c))
		return err
	})
	if err != nil {
		return "registered", unknownIfLost(l.timedOut(ctx, wctx, id, "to start its deployment", err), applied, l.checkCommand(id, ""))
	}
	if d != nil && d.JobVersion == deref(job.Version) && d.JobCreateIndex == deref(job.CreateIndex) {
		status, err := l.watchDeployment(ctx, wctx, job, d.ID, emit, rt)
		return status, unknownIfLost(err, applied, l.checkCommand(id, d.ID))
	}
	status, err := l.watchAllocations(ctx, wctx, job, total, emit, rt)
	return status, unknownIfLost(err, applied, l.checkCommand(id, ""))
}

// watchDeployment reports "h/n allocations healthy", and each task failure of the
// deployment's allocations as it happens, until the deployment succeeds, fails, no
// allocation can become healthy any more, or wctx ends.
func (l *Layer) watchDeployment(ctx, wctx context.Context, job *api.Job, deployID string, emit *emitter, rt *retrier) (string, error) {
	id := deref(job.ID)
	failures := newAllocFailures(job)
	failures.rescheduleAt = l.evalWaitUntil(wctx)
	var dIndex, aIndex uint64
	healthy, desired := 0, 0
	for {
		var (
			d      *api.Deployment
			allocs []*api.AllocationListStub
		)
		err := rt.do(wctx, func(c context.Context) error {
			if dIndex > 0 {
				if err := l.waitChange(c, deployID, dIndex, aIndex); err != nil {
					return err
				}
			}
			var dqm, aqm *api.QueryMeta
			var err error
			if d, dqm, err = l.client.Deployments().Info(deployID, l.query(c)); err != nil {
				return err
			}
			if allocs, aqm, err = l.client.Deployments().Allocations(deployID, l.query(c)); err != nil {
				return err
			}
			dIndex, aIndex = max(dqm.LastIndex, 1), max(aqm.LastIndex, 1)
			return nil
		})
		if err != nil {
			return fmt.Sprintf("%d/%d healthy", healthy, desired), l.timedOut(ctx, wctx, id, fmt.Sprintf("to be healthy (%d/%d allocations healthy)", healthy, desired), err)
		}
		healthy, desired = 0, 0
		for _, s := range d.TaskGroups {
			if s != nil {
				healthy += s.HealthyAllocs
				desired += s.DesiredTotal
			}
		}
		emit.setTotal(desired)
		for _, msg := range failures.news(allocs) {
			emit.note(msg)
		}
		emit.send(healthy, fmt.Sprintf("%d/%d allocations healthy", healthy, desired))
		line := fmt.Sprintf("%d/%d healthy", healthy, desired)
		switch d.Status {
		case deploySuccessful:
			return line, nil
		case deployFailed, deployCancelled:
			msg := fmt.Sprintf("nomad job %s: deployment %s: %s", id, d.Status, d.StatusDescription)
			if why := l.failureReason(wctx, id, deref(job.Version)); why != "" {
				msg += " (" + why + ")"
			}
			return line, errors.New(msg)
		}
		if cause, why, ok := failures.hopeless(allocs, d); ok {
			return line, fmt.Errorf("nomad job %s: %s; no allocation of version %d can become healthy: %s", id, cause, deref(job.Version), why)
		}
	}
}

// evalWaitUntil reads when evaluations wait until (a reschedule's follow-up evaluation), once
// each; an evaluation it cannot read is not known.
func (l *Layer) evalWaitUntil(ctx context.Context) func(string) (time.Time, bool) {
	known := map[string]time.Time{}
	return func(id string) (time.Time, bool) {
		if at, ok := known[id]; ok {
			return at, true
		}
		ev, _, err := l.client.Evaluations().Info(id, l.query(ctx))
		if err != nil || ev.WaitUntil.IsZero() {
			return time.Time{}, false
		}
		known[id] = ev.WaitUntil
		return ev.WaitUntil, true
	}
}

// waitChange blocks until the deployment or one of its allocations changes after the given
// indexes, or a blocking query's wait passes. Allocations change without the deployment when
// their tasks restart, so both are watched.
func (l *Layer) waitChange(ctx context.Context, deployID string, dIndex, aIndex uint64) error {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, 2)
	go func() {
		_, _, err := l.client.Deployments().Info(deployID, l.blocking(cctx, dIndex))
		errs <- err
	}()
	go func() {
		_, _, err := l.client.Deployments().Allocations(deployID, l.blocking(cctx, aIndex))
		errs <- err
	}()
	err := <-errs
	cancel()
	<-errs
	return err
}

// watchAllocations follows a job version that has no deployment (batch and system jobs):
// it is done when want allocations run (or, for batch jobs, completed), and failed as soon
// as one of them fails or is lost. want 0 means every allocation the scheduler placed. Task
// restarts are reported as they happen.
func (l *Layer) watchAllocations(ctx, wctx context.Context, job *api.Job, want int, emit *emitter, rt *retrier) (string, error) {
	id, version := deref(job.ID), deref(job.Version)
	batch := deref(job.Type) == jobTypeBatch
	failures := newAllocFailures(job)
	var index uint64
	ok, total := 0, want
	for {
		var (
			stubs []*api.AllocationListStub
			qm    *api.QueryMeta
		)
		err := rt.do(wctx, func(c context.Context) (err error) {
			stubs, qm, err = l.client.Jobs().Allocations(id, false, l.blocking(c, index))
			return err
		})
		if err != nil {
			return fmt.Sprintf("%d/%d running", ok, total), l.timedOut(ctx, wctx, id, fmt.Sprintf("to run (%d/%d allocations running)", ok, total), err)
		}
		var mine []*api.AllocationListStub
		for _, a := range stubs {
			if a != nil && a.JobVersion == version && a.DesiredStatus == "run" {
				mine = append(mine, a)
			}
		}
		for _, msg := range failures.news(mine) {
			emit.note(msg)
		}
		ok = 0
		for _, a := range mine {
			switch a.ClientStatus {
			case allocRunning:
				ok++
			case allocComplete:
				if batch {
					ok++
				}
			case allocFailed, allocLost:
				return fmt.Sprintf("%d/%d running", ok, total), failedAllocError(id, a, "")
			}
		}
		placed := len(mine)
		if want == 0 {
			total = placed
		}
		if index == 0 && placed == 0 && want > 0 {
			// The evaluation completed (its plan, allocations included, is applied) without
			// placing anything or reporting a failure: Nomad 1.4 counts the allocations a
			// purged job with the same ID left behind until they are garbage-collected.
			return "registered, not placed", fmt.Errorf("nomad job %s: Nomad placed no allocation and reported no failure; allocations of an earlier, purged job with the same ID may linger: run `nomad system gc` and plan again", id)
		}
		emit.setTotal(total)
		verb := "running"
		if batch {
			verb = "running or complete"
		}
		emit.send(ok, fmt.Sprintf("%d/%d allocations %s", ok, total, verb))
		if total > 0 && ok >= total {
			return fmt.Sprintf("%d/%d %s", ok, total, verb), nil
		}
		index = qm.LastIndex
	}
}

// failedAllocError is the error of allocation a of job id that failed or was lost, when follows
// it ("" or " within 5s of starting again"), with its task's failure when it has one:
// "nomad job web--local: allocation 1a2b3c4d failed (task main: Exit Code: 2)".
func failedAllocError(id string, a *api.AllocationListStub, when string) error {
	msg := fmt.Sprintf("nomad job %s: allocation %s %s%s", id, shortID(a.ID), a.ClientStatus, when)
	if why := taskFailure(a.TaskStates); why != "" {
		msg += " (" + why + ")"
	}
	return errors.New(msg)
}

// waitStopped waits until no allocation of the stopped job version is still running or
// pending.
func (l *Layer) waitStopped(ctx context.Context, id string, version uint64, emit *emitter, rt *retrier) error {
	var index uint64
	for {
		var (
			stubs []*api.AllocationListStub
			qm    *api.QueryMeta
		)
		err := rt.do(ctx, func(c context.Context) (err error) {
			stubs, qm, err = l.client.Jobs().Allocations(id, false, l.blocking(c, index))
			return err
		})
		if err != nil {
			return fmt.Errorf("reading the allocations of nomad job %s: %w", id, err)
		}
		live, all := 0, 0
		for _, a := range stubs {
			if a == nil || a.JobVersion != version {
				continue
			}
			all++
			if a.ClientStatus == allocRunning || a.ClientStatus == allocPending {
				live++
			}
		}
		emit.setTotal(all)
		emit.send(all-live, fmt.Sprintf("%d/%d allocations stopped", all-live, all))
		if live == 0 {
			return nil
		}
		index = qm.LastIndex
	}
}

// failureReason names a failed allocation of a job version and why its task failed.
func (l *Layer) failureReason(ctx context.Context, id string, version uint64) string {
	stubs, _, err := l.client.Jobs().Allocations(id, false, l.query(ctx))
	if err != nil {
		return ""
	}
	for _, a := range stubs {
		if a == nil || a.JobVersion != version {
			continue
		}
		unhealthy := a.DeploymentStatus != nil && a.DeploymentStatus.Healthy != nil && !*a.DeploymentStatus.Healthy
		if a.ClientStatus == allocFailed || a.ClientStatus == allocLost || unhealthy {
			if why := taskFailure(a.TaskStates); why != "" {
				return "allocation " + shortID(a.ID) + ": " + why
			}
			return "allocation " + shortID(a.ID) + " " + a.ClientStatus
		}
	}
	return ""
}

// taskFailure is the last failure a task reported: "task app: Exit Code: 1".
func taskFailure(states map[string]*api.TaskState) string {
	for _, name := range sortedKeys(states) {
		s := states[name]
		if s == nil {
			continue
		}
		for i := len(s.Events) - 1; i >= 0; i-- {
			e := s.Events[i]
			if e == nil {
				continue
			}
			if failureEvent(e.Type) {
				msg := e.DisplayMessage
				if msg == "" {
					msg = e.Type
				}
				return "task " + name + ": " + msg
			}
		}
	}
	return ""
}

// blocking is a blocking query: it returns when Nomad's index passes index, or after
// blockingWait; ctx cancels it.
func (l *Layer) blocking(ctx context.Context, index uint64) *api.QueryOptions {
	return (&api.QueryOptions{WaitIndex: index, WaitTime: blockingWait}).WithContext(ctx)
}

// timedOut turns an error of a wait bounded by wctx into the sentence for the result: a
// timeout names DeployTimeout, a cancelled parent context stays that context's error, and a
// wait that ended while the agent was not answering stays a *lostError (see unknownIfLost).
func (l *Layer) timedOut(ctx, wctx context.Context, id, what string, err error) error {
	var lost *lostError
	if errors.As(err, &lost) {
		return fmt.Errorf("nomad job %s: %w", id, err)
	}
	if ctx.Err() == nil && errors.Is(wctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("nomad job %s: not done after %s waiting %s", id, l.timeout, what)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("nomad job %s: %w", id, ctx.Err())
	}
	return err
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func joinSemi(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += "; "
		}
		out += p
	}
	return out
}
