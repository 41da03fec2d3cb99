package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
)

// repairVerbs are the verbs that bring a deployed service and its declared state together
// again, one way or the other (reconcile, adopt), and update, which asks for values: when the
// plan would change nothing, there is nothing to approve.
var repairVerbs = map[string]bool{"reconcile": true, "adopt": true, "update": true}

// asDeclared answers a reconcile, adopt or update whose plan would do nothing, so that nobody
// is asked to approve it: every layer that could be checked has nothing to change and leaves
// nothing differing as is, no secret is created, and the declaration stays as it is (no value
// changes; an adopt takes no Terraform variable from what runs; an update keeps every unit as
// declared, a new catalog version being news). A reconcile or adopt whose drift check still
// finds drift (a Nomad allocation that failed under an unchanged job) is answered with that
// drift, not "already matches". It answers nothing (false) for a plan that changes anything,
// and when no layer could be checked here: "already matches" would then be a guess, and the
// plan's preview says what is not configured.
func (e *Engine) asDeclared(ctx context.Context, c conv, spec executor.Spec, plan executor.Plan) (answer, bool) {
	if !repairVerbs[spec.Verb] || len(spec.Changes) > 0 || len(spec.AdoptedValues) > 0 || (plan.Secrets != nil && len(plan.Secrets.Create) > 0) {
		return answer{}, false
	}
	checked, off, records, ok := idleLayers(plan, spec.Verb == "adopt")
	if !ok || len(checked) == 0 {
		return answer{}, false
	}
	// What still differs from spec once its plan applied: a drift check of every layer, made at
	// most once.
	differs := sync.OnceValue(func() []string { return render.LayerDriftParts(e.cfg.Runner.Drift(ctx, spec)) })
	if spec.Verb != "reconcile" { // a reconcile's spec is the declaration itself
		d, err := e.st.Declared(ctx, spec.Env+"/"+spec.Target)
		same := sameUnits // an update: the whole declaration
		if spec.Verb == "adopt" {
			same = sameTerraformVars // the running Nomad job is recorded anew; Terraform's variables must not change
		}
		if err != nil || !same(d.Spec, spec) {
			return answer{}, false
		}
		// An adopt records each running Nomad job as declared. Where what runs is what is
		// declared now, that records nothing new: there is nothing to adopt. Where it differs
		// and recording it changes what differs (a job scaled by hand), recording it is the
		// adopt; where what differs stays the same once recorded (a failed allocation), the
		// adopt fixes nothing, as below.
		if records {
			if before := render.LayerDriftParts(e.cfg.Runner.Drift(ctx, d.Spec)); len(before) > 0 && !slices.Equal(before, differs()) {
				return answer{}, false
			}
		}
	}
	if spec.Verb != "update" {
		if d := differs(); len(d) > 0 {
			return said(render.DriftNoPlanFixes(spec.Target, spec.Env, spec.Verb, d)), true
		}
	}
	// A plan waiting on the service may be why it was asked (an update beside one that waits).
	text, next := render.AlreadyAsDeclared(spec.Target, spec.Env, spec.Verb, checked, off)
	return said(render.Reply(e.waitingOn(ctx, c, text, spec.Env, spec.Target) + " " + next)), true
}

// idleLayers classifies the layers of a plan that changes nothing: those that checked and
// found nothing to change, and those not configured here. ok is false when the plan changes
// anything, would fail, or has a layer that leaves something differing as is (Salt under an
// adopt): its preview says what. Under an adopt (adopt), a layer whose every change only
// records what runs (Nomad's "version 3 as it runs becomes the declared job", a no-op) is
// checked too, and records says there is one: whether that records anything new is the
// declaration's drift (asDeclared).
func idleLayers(plan executor.Plan, adopt bool) (checked, off []string, records, ok bool) {
	if len(plan.Failures()) > 0 {
		return nil, nil, false, false
	}
	for _, lp := range plan.Layers {
		switch {
		case lp.Kept != "":
			return nil, nil, false, false
		case lp.Status == executor.PlanNoChanges:
			checked = append(checked, lp.Layer.Title())
		case lp.Status == executor.PlanNotConfigured:
			off = append(off, lp.Layer.Title())
		case lp.Status == executor.PlanChanges && adopt && onlyNoOps(lp.Changes):
			checked, records = append(checked, lp.Layer.Title()), true
		case lp.Status == executor.PlanChanges:
			return nil, nil, false, false
		}
	}
	return checked, off, records, true
}

// onlyNoOps reports whether every one of changes (at least one) is a no-op.
func onlyNoOps(changes []executor.Change) bool {
	for _, c := range changes {
		if c.Action != executor.NoOp {
			return false
		}
	}
	return len(changes) > 0
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
