package terraform

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/eosbot/eos/executor"
)

// Rollback undoes a failed or partial apply of spec, unit by unit in reverse order: a unit the
// previous approved spec has a Terraform part for is planned and applied as it was then; any
// other unit (a failed first create) is destroyed, so nothing it created remains. A unit whose
// apply the state lock refused is left alone: nothing of it was applied, and what the state
// holds is another run's work.
func (l *Layer) Rollback(ctx context.Context, spec executor.Spec, previous *executor.Spec, obs executor.Observer) (string, error) {
	obs = executor.Heard(obs)
	var restored, removed, refused []string
	for i := len(spec.Units) - 1; i >= 0; i-- {
		u := spec.Units[i]
		if u.Terraform == nil {
			continue
		}
		target, mode := u, planDestroy
		if prev, ok := unitOf(previous, u.Service); ok && prev.Terraform != nil && !prev.Destroy {
			target, mode = prev, planApply
		}
		skipped, err := l.rollbackUnit(ctx, spec.Env, target, mode, obs.Event)
		if err != nil {
			return "", err
		}
		switch {
		case skipped:
			refused = append(refused, u.Service)
		case mode == planApply:
			restored = append(restored, u.Service)
		default:
			removed = append(removed, u.Service)
		}
	}
	if len(restored) == 0 && len(removed) == 0 && len(refused) > 0 {
		return "nothing to roll back in Terraform: the state lock refused the apply, so nothing was applied", nil
	}
	return rollbackSentence(restored, removed), nil
}

// rollbackUnit plans target in mode and applies that plan at once, under the unit's lock. It
// skips a unit whose last apply the state lock refused.
func (l *Layer) rollbackUnit(ctx context.Context, env string, target executor.Unit, mode planMode, report func(executor.Event)) (skipped bool, err error) {
	ud, release, err := l.lockUnit(env, target)
	if err != nil {
		return false, err
	}
	defer release()
	if ud.refused {
		return true, nil
	}
	defer os.Remove(filepath.Join(ud.dir, rollbackFile))
	r := l.newRun(ud, target)
	if err := r.prepare(ctx, target.Terraform); err != nil {
		return false, err
	}
	changed, p, err := r.planAndShow(ctx, rollbackFile, planOptions(rollbackFile, mode))
	if err != nil || !changed {
		return false, err
	}
	prog := newProgress(resourceChanges(target.Service, p.ResourceChanges), report)
	return false, r.apply(ctx, rollbackFile, prog.forUnit(target.Service))
}

// rollbackSentence tells the person reading the result what state Terraform is left in.
func rollbackSentence(restored, removed []string) string {
	const (
		reapplied = "re-applied the previous approved state"
		gone      = "nothing created by Terraform remains"
	)
	switch {
	case len(restored) == 0 && len(removed) == 0:
		return "nothing to roll back in Terraform"
	case len(restored) == 0:
		return gone
	case len(removed) == 0:
		return reapplied
	}
	return reapplied + " of " + strings.Join(restored, ", ") + "; " + gone + " of " + strings.Join(removed, ", ")
}
