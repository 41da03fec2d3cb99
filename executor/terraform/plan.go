package terraform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"golang.org/x/sync/errgroup"

	"github.com/eosbot/eos/executor"
)

// planState is the layer-private part of a LayerPlan: where each unit's saved plan is and what
// it looked like, so Apply runs exactly that file.
type planState struct {
	Units []unitPlan `json:"units"`
}

type unitPlan struct {
	Service string `json:"service"`
	// Plan is the saved plan file's absolute path.
	Plan string `json:"plan"`
	// SHA256 is the plan file's checksum when it was made; a different file is stale.
	SHA256 string `json:"sha256"`
	// Apply is false when the unit's plan changes nothing.
	Apply bool `json:"apply"`
	// Objects are the names of the objects the unit's state holds once the plan is applied,
	// for a remote backend (objects.go); nil with the local backend, whose state is read.
	Objects []objectName `json:"objects,omitempty"`
	// clashes are the objects the plan creates that another unit owns (owners.go): the
	// plan's Failures, not part of its saved state; so is refused, why Terraform refused to
	// plan the unit (planRefusal), in which case there is no saved plan.
	clashes []string
	refused string
}

// Plan writes each unit's module, initialises it and makes a saved plan of what applying it
// would do, or of removing it when the unit is destroyed. Each call writes new saved plan files
// (see plans.go), so no plan ever replaces another's.
func (l *Layer) Plan(ctx context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	lp := executor.LayerPlan{Layer: executor.Terraform}
	if !spec.Has(executor.Terraform) {
		lp.Status, lp.Summary = executor.PlanNothing, "no Terraform part"
		return lp, nil
	}
	var (
		st      planState
		digest  strings.Builder
		changes []executor.Change
		apply   bool
	)
	planned, err := l.planUnits(ctx, spec)
	if err != nil {
		return executor.LayerPlan{Layer: executor.Terraform}, err
	}
	for _, p := range planned {
		up, uc, ud := p.up, p.changes, p.digest
		st.Units = append(st.Units, up)
		lp.Failures = append(lp.Failures, up.clashes...)
		if up.refused != "" {
			lp.Failures = append(lp.Failures, up.refused)
		}
		changes = append(changes, uc...)
		digest.WriteString(ud)
		apply = apply || up.Apply
	}
	state, err := json.Marshal(st)
	if err != nil {
		return executor.LayerPlan{Layer: executor.Terraform}, fmt.Errorf("encoding the terraform plan state: %w", err)
	}
	lp.Changes, lp.Digest, lp.State = changes, digest.String(), state
	switch {
	case apply && spec.Adopt:
		lp.Status, lp.Summary = executor.PlanChanges, adoptSummary(changes, len(st.Units) > 1)
	case apply:
		lp.Status, lp.Summary = executor.PlanChanges, planSummary(changes, len(st.Units) > 1)
	case len(lp.Failures) > 0:
		lp.Status, lp.Summary = executor.PlanChanges, "plan refused (see ⛔ above)"
	default:
		lp.Status, lp.Summary = executor.PlanNoChanges, "no changes"
	}
	return lp, nil
}

// plannedUnit is one unit's plan, as planUnit makes it.
type plannedUnit struct {
	up      unitPlan
	changes []executor.Change
	digest  string
}

// planUnits plans the spec's Terraform units side by side, as many at once as there are cores
// (each has its own working directory, state and lock), and returns them in the spec's order
// whatever order they finish in, so the layer's plan is the same as planning them one after
// another. The first unit that fails cancels the others and its error is the answer.
func (l *Layer) planUnits(ctx context.Context, spec executor.Spec) ([]plannedUnit, error) {
	var units []executor.Unit
	for _, u := range spec.Units {
		if u.Terraform != nil {
			units = append(units, u)
		}
	}
	out := make([]plannedUnit, len(units))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, u := range units {
		g.Go(func() error {
			up, uc, ud, err := l.planUnit(gctx, spec.Env, u, spec.Adopt)
			out[i] = plannedUnit{up, uc, ud}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// planUnit plans one unit under its directory lock. An adopt's plan is a refresh-only one:
// applying it makes the state take in what changed outside Terraform.
func (l *Layer) planUnit(ctx context.Context, env string, u executor.Unit, adopt bool) (unitPlan, []executor.Change, string, error) {
	ud, release, err := l.lockUnit(env, u)
	if err != nil {
		return unitPlan{}, nil, "", err
	}
	defer release()
	r := l.newRun(ud, u)
	if err := r.prepare(ctx, u.Terraform); err != nil {
		return unitPlan{}, nil, "", err
	}
	mode := planApply
	switch {
	case u.Destroy:
		mode = planDestroy
	case adopt:
		mode = planRefresh
		if err := r.checkAdopted(ctx); err != nil {
			return unitPlan{}, nil, "", err
		}
	}
	file, err := newPlanFile(ud, time.Now())
	if err != nil {
		return unitPlan{}, nil, "", err
	}
	path := filepath.Join(ud.dir, file)
	for _, err := range prunePlans(ud, time.Now(), path) {
		executor.Log(ctx, l.log).Warn("removing an old saved plan", "unit", ud.key, "error", err)
	}
	changed, p, err := r.planAndShow(ctx, file, planOptions(file, mode))
	if err == nil && mode == planRefresh {
		changed = changed && refreshFinds(p)
	}
	if err != nil && mode == planDestroy && ctx.Err() == nil && !errors.Is(err, ErrStateLocked) {
		// Terraform refreshes before a destroy by planning the declared configuration, which
		// fails on drift the provider cannot plan back (a volume grown by hand). Removing
		// needs no declaration: plan it from the recorded state instead.
		executor.Log(ctx, l.log).Info("destroy plan with refresh failed; planning from the recorded state", "unit", ud.key, "error", err)
		changed, p, err = r.planAndShow(ctx, file, planOptions(file, planDestroyAsRecorded))
	}
	if err != nil {
		os.Remove(path)
		if why := planRefusal(err); why != "" && ctx.Err() == nil {
			// A plan Terraform refuses for what was asked is a plan that would fail: shown
			// with why and never approvable (executor.Plan.Failures), not "planning failed".
			return unitPlan{Service: u.Service, refused: why}, nil, ud.key + ": refused: " + why + "\n", nil
		}
		return unitPlan{}, nil, "", err
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return unitPlan{}, nil, "", fmt.Errorf("reading the saved plan for %s: %w", ud.key, err)
	}
	up := unitPlan{Service: u.Service, Plan: path, SHA256: sum, Apply: changed}
	if adopt {
		return up, adoptedChanges(u.Service, p.ResourceDrift), unitDigest(ud.key, &tfjson.Plan{ResourceChanges: p.ResourceDrift}), nil
	}
	if mode == planApply {
		up.clashes = l.clashes(env, u.Service, p.ResourceChanges)
	}
	if l.backend.remote() {
		up.Objects = plannedNames(p)
	}
	changes := resourceChanges(u.Service, p.ResourceChanges)
	markDataLoss(changes, p.ResourceChanges, u.Terraform.HoldsData)
	return up, changes, unitDigest(ud.key, p), nil
}

// decodeState reads the layer-private plan state.
func decodeState(raw json.RawMessage) (planState, error) {
	var st planState
	if len(raw) == 0 {
		return st, fmt.Errorf("the terraform plan has no saved state; plan again")
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return st, fmt.Errorf("reading the terraform plan state: %w", err)
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
