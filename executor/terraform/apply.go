package terraform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// Apply applies each unit's saved plan file exactly as planned, in spec order, reporting
// progress from Terraform's -json output. It stops at the first unit that fails. A unit that
// could not be applied for a reason that is not Terraform's failure (a stale or missing saved
// plan, a refused state lock), or that failed before Terraform changed anything in this apply,
// is returned as an executor.HaltError: the run stops without a rollback. obs is told from
// one goroutine at a time, and never after Apply returned.
func (l *Layer) Apply(ctx context.Context, spec executor.Spec, plan executor.LayerPlan, obs executor.Observer) (executor.LayerResult, error) {
	obs = executor.Heard(obs)
	start := time.Now()
	res := executor.LayerResult{Layer: executor.Terraform, Total: len(plan.Changes)}
	if plan.Status != executor.PlanChanges {
		res.Status, res.Summary = executor.ResultSkipped, "no changes"
		return res, nil
	}
	multi := len(spec.Units) > 1
	fail := func(err error, prog *progress) (executor.LayerResult, error) {
		res.Status, res.Error, res.Elapsed = executor.ResultFailed, err.Error(), time.Since(start)
		res.Summary = "nothing applied"
		if prog != nil {
			res.Done, res.Failed = prog.done, prog.failed
			res.Summary = failedSummary(prog.applied, multi)
		}
		var halt *executor.HaltError
		if errors.As(err, &halt) {
			res.Status, res.Error = executor.ResultHalted, halt.Message()
		}
		return res, err
	}
	st, err := decodeState(plan.State)
	if err != nil {
		return fail(executor.Halt("the plan has no saved Terraform plan", true, err), nil)
	}
	prog := newProgress(plan.Changes, obs.Event)
	prog.output = func(line string) { obs.Output(executor.Terraform, line) }
	for _, up := range st.Units {
		if !up.Apply {
			continue
		}
		u, ok := unitOf(&spec, up.Service)
		if !ok || u.Terraform == nil {
			err := fmt.Errorf("the terraform plan has unit %s, which the spec has no Terraform part for; plan again", up.Service)
			return fail(executor.Halt("the saved plan does not match the spec", prog.started == 0, err), prog)
		}
		if err := l.applyUnit(ctx, spec.Env, u, up, prog.forUnit(u.Service)); err != nil {
			return fail(haltOf(err, prog, up.Service, multi), prog)
		}
	}
	res.Status, res.Done, res.Elapsed = executor.ResultOK, prog.done, time.Since(start)
	res.Summary = resultSummary(prog.applied)
	if spec.Adopt {
		res.Summary = fmt.Sprintf("state took in %d change%s", len(plan.Changes), map[bool]string{true: "", false: "s"}[len(plan.Changes) == 1])
	}
	return res, nil
}

// Errors applyUnit returns before running terraform, when the saved plan is not there to
// apply. They are Eos's own, never Terraform's.
var (
	errPlanGone    = errors.New("the saved plan file is gone")
	errPlanNotOurs = errors.New("the saved plan is not this unit's")
)

// haltOf classifies a unit's failed apply. Eos's own failures (the saved plan stale, gone or
// not the unit's, the state lock refused or not released) halt the run whatever was applied
// before; a failure Terraform reported before it began changing any resource of this apply
// halts it too. Anything else (a resource failed, a timeout) is the layer's failure and err is
// returned as it is.
func haltOf(err error, prog *progress, service string, multi bool) error {
	untouched := prog.started == 0
	var ce *commandError
	var reason string
	switch {
	case errors.Is(err, errPlanGone):
		reason = "the saved plan file is gone (applied, or removed as too old)"
	case errors.Is(err, errPlanNotOurs):
		reason = "the saved plan is not this unit's"
	case errors.Is(err, ErrStalePlan):
		reason = "the saved plan is stale (state changed since it was planned)"
	case (errors.Is(err, ErrStateLocked) || errors.Is(err, errLockRelease)) && errors.As(err, &ce):
		reason = ce.msg
	case untouched && errors.As(err, &ce) && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled):
		reason = ce.Error()
	default:
		return err
	}
	if multi {
		reason = service + ": " + reason
	}
	return executor.Halt(reason, untouched, err)
}

// applyUnit applies one unit's saved plan under its directory lock, after checking that the
// file is one of the unit's saved plans and the very one that was planned.
func (l *Layer) applyUnit(ctx context.Context, env string, u executor.Unit, up unitPlan, prog *progress) error {
	ud, release, err := l.lockUnit(env, u)
	if err != nil {
		return err
	}
	defer release()
	file, ok := ownPlanFile(ud, up.Plan)
	if !ok {
		return fmt.Errorf("terraform apply for %s: %w (%s); plan again", ud.key, errPlanNotOurs, up.Plan)
	}
	sum, err := fileSHA256(up.Plan)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &commandError{op: "apply", key: ud.key, cause: errors.Join(errPlanGone, ErrStalePlan),
			msg: "the saved plan is gone (it was applied, or removed as too old); plan again"}
	case err != nil:
		return fmt.Errorf("terraform apply for %s: reading the saved plan: %w", ud.key, err)
	case sum != up.SHA256:
		return &commandError{op: "apply", key: ud.key, cause: ErrStalePlan,
			msg: "the saved plan is stale (the file changed since it was planned); plan again"}
	}
	r := l.newRun(ud, u)
	prog.redact = r.redact
	err = r.apply(ctx, file, prog)
	ud.refused = errors.Is(err, ErrStateLocked)
	if !ud.refused {
		// An applied (or failed) plan can never be applied again; removing it makes a
		// replay fail clearly. A plan the lock refused is still good until the state moves.
		if rerr := os.Remove(up.Plan); rerr != nil {
			l.log.Warn("removing an applied plan file", "unit", ud.key, "error", rerr)
		}
	}
	if err == nil && l.backend.remote() {
		l.recordObjects(ud.dir, up.Objects)
	}
	if err != nil {
		// Older Terraform versions leave the resource out of diagnostics; the hooks name it.
		var ce *commandError
		if errors.As(err, &ce) && prog.failed != nil && !strings.Contains(ce.msg, prog.failed.Address) {
			ce.msg = prog.failed.Address + ": " + ce.msg
		}
		return err
	}
	return nil
}
