package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// repairVerbs are the verbs that bring a deployed service and its declared state together
// again, one way or the other: when both already agree there is nothing to approve.
// An update that asks for the values a service has, at the catalog's version it runs, is
// nothing to approve either.
var repairVerbs = map[string]bool{"reconcile": true, "adopt": true, "update": true}

// asDeclared answers a reconcile or adopt whose plan would do nothing: every layer that could be
// checked has nothing to change and leaves nothing differing as is, no secret is created, and the declared state stays as it is
// (no value changes, and an adopt takes no Terraform variable from what runs). A plan of nothing
// would still ask a teammate to approve it, so no plan is made. It answers nothing (false) for
// a plan that changes anything, and when no layer could be checked here (each not configured):
// "already matches" would then be a guess, and the plan's preview says what is not configured.
func (e *Engine) asDeclared(ctx context.Context, c conv, spec executor.Spec, plan executor.Plan) (answer, bool) {
	if !repairVerbs[spec.Verb] || plan.HasChanges() || len(plan.Failures()) > 0 ||
		len(spec.Changes) > 0 || len(spec.AdoptedValues) > 0 || (plan.Secrets != nil && len(plan.Secrets.Create) > 0) {
		return answer{}, false
	}
	var checked, off []string
	for _, lp := range plan.Layers {
		switch {
		case lp.Kept != "":
			return answer{}, false // something differs that the plan leaves as is (Salt under an adopt): the preview says what
		case lp.Status == executor.PlanNoChanges:
			checked = append(checked, lp.Layer.Title())
		case lp.Status == executor.PlanNotConfigured:
			off = append(off, lp.Layer.Title())
		}
	}
	if len(checked) == 0 {
		return answer{}, false
	}
	switch spec.Verb {
	case "adopt": // the running Nomad job is recorded anew; Terraform's variables must not change
		d, err := e.st.Declared(ctx, spec.Env+"/"+spec.Target)
		if err != nil || !sameTerraformVars(d.Spec, spec) {
			return answer{}, false
		}
	case "update": // the whole declaration must stay as it is (a new catalog version is news)
		d, err := e.st.Declared(ctx, spec.Env+"/"+spec.Target)
		if err != nil || !sameUnits(d.Spec, spec) {
			return answer{}, false
		}
	}
	// A plan waiting on the service may be why it was asked (an update beside one that waits).
	if spec.Verb != "update" {
		// What the drift check calls drift a plan may not see (a Nomad allocation that failed
		// under an unchanged job): then saying "already matches" would contradict the digest.
		if differs := e.stillDrifted(ctx, spec); len(differs) > 0 {
			return said(render.DriftNoPlanFixes(spec.Target, spec.Env, spec.Verb, differs)), true
		}
	}
	text, next := render.AlreadyAsDeclared(spec.Target, spec.Env, spec.Verb, checked, off)
	return said(render.Reply(e.waitingOn(ctx, c, text, spec.Env, spec.Target) + " " + next)), true
}

// sameTerraformVars reports whether every unit of b has the Terraform variables its unit of a
// has (compared as text, as JSON numbers and Go numbers may differ in type).
func sameTerraformVars(a, b executor.Spec) bool {
	if len(a.Units) != len(b.Units) {
		return false
	}
	for i, u := range b.Units {
		d := a.Units[i]
		if (u.Terraform == nil) != (d.Terraform == nil) {
			return false
		}
		if u.Terraform == nil {
			continue
		}
		if len(u.Terraform.Vars) != len(d.Terraform.Vars) {
			return false
		}
		for k, v := range u.Terraform.Vars {
			w, ok := d.Terraform.Vars[k]
			if !ok || fmt.Sprint(v) != fmt.Sprint(w) {
				return false
			}
		}
	}
	return true
}

// sameUnits reports whether b declares exactly the units a does: every part of each, as
// stored. A spec that cannot be encoded is not the same.
func sameUnits(a, b executor.Spec) bool {
	x, err1 := json.Marshal(a.Units)
	y, err2 := json.Marshal(b.Units)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// stillDrifted checks spec's drift and names, per layer, what differs from the declaration or
// could not be checked ("Nomad: grafana--local/grafana 1 of 1 allocations failed").
func (e *Engine) stillDrifted(ctx context.Context, spec executor.Spec) []string {
	var out []string
	for _, ld := range e.cfg.Runner.Drift(ctx, spec) {
		switch ld.Status {
		case executor.DriftDrifted:
			out = append(out, ld.Layer.Title()+": "+strings.Join(render.ChangeTexts(ld.Changes), "; "))
		case executor.DriftUnknown:
			out = append(out, ld.Layer.Title()+": its check failed ("+strings.TrimSpace(strings.SplitN(strings.TrimSpace(ld.Reason), "\n", 2)[0])+")")
		}
	}
	return out
}
