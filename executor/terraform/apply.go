package terraform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// Apply applies each unit's saved plan file exactly as planned, in spec order, reporting
// progress from Terraform's -json output. It stops at the first unit that fails. report is
// called from one goroutine at a time, and never after Apply returned.
func (l *Layer) Apply(ctx context.Context, spec executor.Spec, plan executor.LayerPlan, report func(executor.Event)) (executor.LayerResult, error) {
	start := time.Now()
	res := executor.LayerResult{Layer: executor.Terraform, Total: len(plan.Changes)}
	if plan.Status != executor.PlanChanges {
		res.Status, res.Summary = executor.ResultSkipped, "no changes"
		return res, nil
	}
	fail := func(err error, prog *progress) (executor.LayerResult, error) {
		res.Status, res.Error, res.Elapsed = executor.ResultFailed, err.Error(), time.Since(start)
		res.Summary = "nothing applied"
		if prog != nil {
			res.Done, res.Failed = prog.done, prog.failed
			res.Summary = failedSummary(prog.applied, len(spec.Units) > 1)
		}
		return res, err
	}
	st, err := decodeState(plan.State)
	if err != nil {
		return fail(err, nil)
	}
	prog := newProgress(plan.Changes, report)
	for _, up := range st.Units {
		if !up.Apply {
			continue
		}
		u, ok := unitOf(&spec, up.Service)
		if !ok || u.Terraform == nil {
			return fail(fmt.Errorf("the terraform plan has unit %s, which the spec has no Terraform part for; plan again", up.Service), prog)
		}
		if err := l.applyUnit(ctx, spec.Env, u, up, prog.forUnit(u.Service)); err != nil {
			return fail(err, prog)
		}
	}
	res.Status, res.Done, res.Elapsed = executor.ResultOK, prog.done, time.Since(start)
	res.Summary = resultSummary(prog.applied)
	return res, nil
}

// applyUnit applies one unit's saved plan under its directory lock, after checking that the
// file is the one that was planned.
func (l *Layer) applyUnit(ctx context.Context, env string, u executor.Unit, up unitPlan, prog *progress) error {
	ud, release, err := l.lockUnit(env, u)
	if err != nil {
		return err
	}
	defer release()
	path := filepath.Join(ud.dir, planFile)
	if up.Plan != path {
		return fmt.Errorf("terraform apply for %s: the saved plan %s is not this unit's; plan again", ud.key, up.Plan)
	}
	sum, err := fileSHA256(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &commandError{op: "apply", key: ud.key, cause: ErrStalePlan,
			msg: "the saved plan is gone (it was applied or replaced); plan again"}
	case err != nil:
		return fmt.Errorf("terraform apply for %s: reading the saved plan: %w", ud.key, err)
	case sum != up.SHA256:
		return &commandError{op: "apply", key: ud.key, cause: ErrStalePlan,
			msg: "the saved plan is stale (a newer plan replaced it); plan again"}
	}
	r := l.newRun(ud, u)
	err = r.apply(ctx, planFile, prog)
	ud.refused = errors.Is(err, ErrStateLocked)
	if err != nil {
		// Older Terraform versions leave the resource out of diagnostics; the hooks name it.
		var ce *commandError
		if errors.As(err, &ce) && prog.failed != nil && !strings.Contains(ce.msg, prog.failed.Address) {
			ce.msg = prog.failed.Address + ": " + ce.msg
		}
		return err
	}
	// An applied plan can never be applied again; removing it makes a replay fail clearly.
	if err := os.Remove(path); err != nil {
		l.log.Warn("removing an applied plan file", "unit", ud.key, "error", err)
	}
	return nil
}
