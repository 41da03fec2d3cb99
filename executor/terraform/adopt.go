package terraform

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

var _ executor.Adopter = (*Layer)(nil)

// Adopt declares the unit's real resources. A refresh-only plan says what changed outside
// Terraform, and each changed attribute set straight from a variable (`size = var.server_size`,
// the variable's value equal to the attribute as last applied) gets the real value as that
// variable's. Reading drift this way works even when a normal plan cannot be made (a volume
// grown by hand, which the provider refuses to shrink back). When nothing changed outside,
// a plan of the declared configuration says where reality differs and is adopted the same way.
// Any other difference (a resource deleted or created outside Terraform, an attribute computed
// from several values or none) cannot be declared and is an error naming it. The state itself
// takes in reality when the adopt plan, a refresh-only one, is applied.
func (l *Layer) Adopt(ctx context.Context, env string, u executor.Unit) (executor.Unit, error) {
	if u.Terraform == nil {
		return u, nil
	}
	ud, release, err := l.lockUnit(env, u)
	if err != nil {
		return u, err
	}
	defer release()
	defer os.Remove(filepath.Join(ud.dir, adoptFile))
	r := l.newRun(ud, u)
	if err := r.prepare(ctx, u.Terraform); err != nil {
		return u, err
	}
	_, p, err := r.planAndShow(ctx, adoptFile, planOptions(adoptFile, planRefresh))
	if err != nil {
		return u, err
	}
	vars, refused := driftedVars(p, u.Terraform.Vars)
	if len(p.ResourceDrift) == 0 {
		if _, p, err = r.planAndShow(ctx, adoptFile, planOptions(adoptFile, planApply)); err != nil {
			return u, err
		}
		vars, refused = adoptedVars(p, u.Terraform.Vars)
	}
	if len(refused) > 0 {
		return u, fmt.Errorf("%s: cannot be declared as it is: %s; reconcile instead", ud.key, strings.Join(refused, "; "))
	}
	part := *u.Terraform
	part.Vars = vars
	u.Terraform = &part
	return u, nil
}

// adoptedVars is vars with each variable that sets a differing attribute directly given the
// real value, and what cannot be adopted that way, from a plan of the declared configuration
// (before is reality, after the declaration).
func adoptedVars(p *tfjson.Plan, declared map[string]any) (map[string]any, []string) {
	return varsOf(p, p.ResourceChanges, declared, false)
}

// driftedVars is adoptedVars from a refresh-only plan's drift (before is the state as last
// applied, after is reality).
func driftedVars(p *tfjson.Plan, declared map[string]any) (map[string]any, []string) {
	return varsOf(p, p.ResourceDrift, declared, true)
}

// varsOf adopts rcs into declared: realAfter says whether reality is a change's after (drift)
// or its before (a plan of the declaration).
func varsOf(p *tfjson.Plan, rcs []*tfjson.ResourceChange, declared map[string]any, realAfter bool) (map[string]any, []string) {
	vars := maps.Clone(declared)
	if vars == nil {
		vars = map[string]any{}
	}
	var refused []string
	for _, rc := range rcs {
		if rc == nil || rc.Change == nil || rc.Mode == tfjson.DataResourceMode {
			continue
		}
		act, ok := actionOf(rc.Change.Actions)
		if !ok {
			continue
		}
		switch {
		case act == executor.Create && realAfter:
			refused = append(refused, rc.Address+" was created outside Terraform")
			continue
		case act == executor.Delete && realAfter:
			refused = append(refused, rc.Address+" was deleted outside Terraform")
			continue
		case act == executor.Create:
			refused = append(refused, rc.Address+" is declared but missing")
			continue
		case act == executor.Delete:
			refused = append(refused, rc.Address+" exists but is no longer declared")
			continue
		}
		real, _ := rc.Change.Before.(map[string]any)
		decl, _ := rc.Change.After.(map[string]any)
		if realAfter {
			real, decl = decl, real
		}
		unknown, _ := rc.Change.AfterUnknown.(map[string]any)
		exprs := expressionsOf(p, rc)
		for _, attr := range sortedAttrs(real, decl) {
			if marked(unknown[attr]) || same(real[attr], decl[attr]) {
				continue
			}
			name, ok := directVariable(exprs[attr])
			if !ok || p.Variables[name] == nil || !same(p.Variables[name].Value, decl[attr]) {
				refused = append(refused, fmt.Sprintf("%s %s is not set from one variable", rc.Address, attr))
				continue
			}
			vars[name] = real[attr]
		}
	}
	return vars, refused
}

// expressionsOf is the configuration of rc's resource, by attribute; nil when the plan has
// none (a resource of a child module).
func expressionsOf(p *tfjson.Plan, rc *tfjson.ResourceChange) map[string]*tfjson.Expression {
	if p.Config == nil || p.Config.RootModule == nil || rc.ModuleAddress != "" {
		return nil
	}
	for _, res := range p.Config.RootModule.Resources {
		if res.Address == rc.Address || (res.Type == rc.Type && res.Name == rc.Name) {
			return res.Expressions
		}
	}
	return nil
}

// directVariable names the variable an expression refers to, when it refers to exactly one
// and nothing else.
func directVariable(e *tfjson.Expression) (string, bool) {
	if e == nil || e.ExpressionData == nil || len(e.References) != 1 {
		return "", false
	}
	name, ok := strings.CutPrefix(e.References[0], "var.")
	return name, ok && !strings.ContainsAny(name, ".[")
}

func sortedAttrs(objs ...map[string]any) []string {
	seen := map[string]bool{}
	for _, o := range objs {
		for k := range o {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// same compares two plan values as JSON, so a number read as json.Number equals the float
// a variable holds.
func same(a, b any) bool {
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && string(ja) == string(jb)
}

// checkAdopted refuses an adopt whose declared configuration (the adopted variables, written
// by prepare) would still change a resource: the adopt would leave drift behind.
func (r *run) checkAdopted(ctx context.Context) error {
	defer os.Remove(filepath.Join(r.ud.dir, adoptFile))
	_, p, err := r.planAndShow(ctx, adoptFile, planOptions(adoptFile, planApply))
	if err != nil {
		return err
	}
	if left := resourceChanges("", p.ResourceChanges); len(left) > 0 {
		texts := make([]string, len(left))
		for i, c := range left {
			texts[i] = strings.TrimSpace(c.Address + " " + c.Detail)
		}
		return fmt.Errorf("%s: adopting would still leave drift (%s); reconcile instead", r.ud.key, strings.Join(texts, "; "))
	}
	return nil
}

// adoptedChanges describes what an adopt's refresh-only plan takes into the state.
func adoptedChanges(unit string, drift []*tfjson.ResourceChange) []executor.Change {
	changes := outsideChanges(unit, drift)
	for i := range changes {
		changes[i].Detail = strings.Replace(changes[i].Detail, "changed outside Terraform", "adopted as declared", 1)
	}
	return changes
}

// refreshFinds reports whether refresh-only plan p takes anything into the state: a resource
// changed outside Terraform, or an output whose value changes. Terraform (1.5) exits with
// "changes" for every refresh-only plan saved to a file, even one where every output is a
// no-op, so its exit code alone would offer an adopt that adopts nothing.
func refreshFinds(p *tfjson.Plan) bool {
	if len(p.ResourceDrift) > 0 {
		return true
	}
	for _, oc := range p.OutputChanges {
		if oc != nil && !oc.Actions.NoOp() {
			return true
		}
	}
	return false
}
