package terraform

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

// Drift compares each unit's real resources with spec in two ways: a refresh-only plan finds
// changes made outside Terraform, and a normal plan finds where the declared configuration no
// longer matches. Plans go to a temporary file, never to the unit's saved plan. What the
// refresh found is reported even when the normal plan fails because of it (a volume grown by
// hand, which the provider refuses to shrink back): that is the drift, and a reconcile's own
// preview says why it cannot undo it. When terraform itself fails for any unit otherwise, the
// status is DriftUnknown with the reason (other units' changes are still listed); it is never
// reported clean. The error is only the context's.
func (l *Layer) Drift(ctx context.Context, spec executor.Spec) (executor.LayerDrift, error) {
	d := executor.LayerDrift{Layer: executor.Terraform}
	if !spec.Has(executor.Terraform) {
		d.Status, d.Reason = executor.DriftSkipped, "no Terraform part"
		return d, nil
	}
	var reasons []string
	for _, u := range spec.Units {
		if u.Terraform == nil {
			continue
		}
		changes, err := l.driftUnit(ctx, spec.Env, u)
		if err != nil {
			reasons = append(reasons, err.Error())
			if ctx.Err() != nil {
				d.Status, d.Reason = executor.DriftUnknown, strings.Join(reasons, "; ")
				return d, ctx.Err()
			}
			continue
		}
		d.Changes = append(d.Changes, changes...)
	}
	switch {
	case len(reasons) > 0:
		d.Status, d.Reason = executor.DriftUnknown, strings.Join(reasons, "; ")
	case len(d.Changes) > 0:
		d.Status = executor.DriftDrifted
	default:
		d.Status = executor.DriftClean
	}
	return d, nil
}

// driftUnit checks one unit under its directory lock.
func (l *Layer) driftUnit(ctx context.Context, env string, u executor.Unit) ([]executor.Change, error) {
	ud, release, err := l.lockUnit(env, u)
	if err != nil {
		return nil, err
	}
	defer release()
	defer os.Remove(filepath.Join(ud.dir, driftFile))
	r := l.newRun(ud, u)
	if err := r.prepare(ctx, u.Terraform); err != nil {
		return nil, err
	}

	outsideChanged, outside, err := r.planAndShow(ctx, driftFile, planOptions(driftFile, planRefresh))
	if err != nil {
		return nil, err
	}
	changes := outsideChanges(u.Service, outside.ResourceDrift)

	mode := planApply
	if u.Destroy {
		mode = planDestroy
	}
	configChanged, declared, err := r.planAndShow(ctx, driftFile, planOptions(driftFile, mode))
	if err != nil {
		if len(changes) > 0 && ctx.Err() == nil {
			return changes, nil
		}
		return nil, err
	}
	seen := map[string]bool{}
	for _, c := range changes {
		seen[c.Address] = true
	}
	for _, c := range resourceChanges(u.Service, declared.ResourceChanges) {
		if !seen[c.Address] {
			c.Detail = declaredDetail(c)
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 && (outsideChanged || configChanged) {
		changes = outputChanges(u.Service, declared)
	}
	return changes, nil
}

// outsideChanges describes what a refresh found changed outside Terraform.
func outsideChanges(unit string, drift []*tfjson.ResourceChange) []executor.Change {
	changes := resourceChanges(unit, drift)
	for i, c := range changes {
		switch c.Action {
		case executor.Delete:
			changes[i].Detail = "deleted outside Terraform"
		case executor.Create:
			changes[i].Detail = "created outside Terraform"
		default:
			changes[i].Detail = strings.TrimPrefix(c.Detail+", changed outside Terraform", ", ")
		}
	}
	return changes
}

// declaredDetail describes a change the declared configuration calls for.
func declaredDetail(c executor.Change) string {
	switch c.Action {
	case executor.Create:
		return "declared but missing"
	case executor.Delete:
		return "exists but is no longer declared"
	}
	if c.Detail == "" {
		return "differs from the declaration"
	}
	return c.Detail + " to match the declaration"
}

// outputChanges lists changed outputs, for plans that change nothing else.
func outputChanges(unit string, p *tfjson.Plan) []executor.Change {
	var out []executor.Change
	for name, oc := range p.OutputChanges {
		if oc == nil {
			continue
		}
		if act, ok := actionOf(oc.Actions); ok {
			out = append(out, executor.Change{Unit: unit, Action: act, Address: "output." + name, Detail: "output differs from the declaration"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Address < out[j].Address })
	return out
}
