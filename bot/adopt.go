package bot

import (
	"context"
	"fmt"
	"maps"
	"sort"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// adopt answers `adopt SERVICE`: the opposite of reconcile, for drift that was meant.
func (e *Engine) adopt(ctx context.Context, c conv, in *intents.Intent) answer {
	return answerOf(e.adoptService(ctx, c, e.envOf(in), in.Noun))
}

// adoptService proposes taking what runs as the declared state of service in env, for `adopt`
// and for a 📥 on a drift digest: an ordinary plan, previewed and approved like any other,
// whose run changes nothing real (Terraform applies a refresh-only plan, Nomad registers
// nothing, Salt applies nothing) and records reality as declared. A Terraform variable taken
// from what runs declares the flag it comes from (a volume grown by hand to 300 GB is
// --storage 300G), so the service renders the same way afterwards. Drift only Salt has is not
// adopted: the answer says why and how to keep it, and no plan is made. It returns the plan's
// id, or "" when none was stored, and what to answer.

func (e *Engine) adoptService(ctx context.Context, c conv, env, service string) (string, answer) {
	d, err := e.st.Declared(ctx, env+"/"+service)
	if err != nil || d.Destroyed {
		return "", said(render.NothingDeclared(service, env, "nothing to adopt", " @eos status"+e.inFlightAfter(ctx, " · ", env, service)))
	}
	if busy := e.busy(ctx, store.SpecKeys(d.Spec)); busy != "" {
		return "", said(render.Reply(busy))
	}
	actx, cancel := context.WithTimeout(ctx, planTimeout)
	defer cancel()
	spec, err := e.cfg.Runner.Adopt(actx, d.Spec)
	if err != nil {
		return "", said(render.CantAdopt(service, env, err))
	}
	spec = e.adoptFlags(d.Spec, spec)
	spec.Asked, spec.Changes, spec.ReturnsTo = nil, nil, "" // what runs is asked for, nothing typed
	// Only a requester learns what the drift is; propose answers anyone else.
	if ep := e.policy().For(env, spec.Verb); ep.MayRequest(e.person(ctx, c.adapter, c.msg.Author, ep.Requesters)) && len(spec.AdoptedValues) == 0 {
		if states := e.saltOnlyDrift(actx, d.Spec); len(states) > 0 {
			return "", said(render.SaltOnlyDrift(service, env, states))
		}
	}
	return e.propose(ctx, c, spec, store.PlanPending)
}

// saltOnlyDrift checks spec's drift and, when only its Salt states differ from what runs (no
// other layer drifted, none unknown), names them; nil otherwise. Only a spec with Salt states
// is checked.
func (e *Engine) saltOnlyDrift(ctx context.Context, spec executor.Spec) []string {
	if !spec.Has(executor.Salt) {
		return nil
	}
	var states []string
	for _, l := range e.cfg.Runner.Drift(ctx, spec) {
		switch {
		case l.Status == executor.DriftUnknown, l.Status == executor.DriftDrifted && l.Layer != executor.Salt:
			return nil
		case l.Status == executor.DriftDrifted:
			for _, c := range l.Changes {
				states = append(states, c.Address)
			}
		}
	}
	return states
}

// adoptFlags declares, for each unit of the adopted spec whose Terraform variables an adopt
// took from what runs, the flags those variables come from (catalog's AdoptedFlags), and
// renders the unit's values, Salt pillar and Nomad variables with them; the adopted Terraform
// variables and Nomad job stay as the layers adopted them. The flags that change are listed
// in the spec's AdoptedValues for the preview.
func (e *Engine) adoptFlags(declared, adopted executor.Spec) executor.Spec {
	for i, u := range adopted.Units {
		if u.Terraform == nil || i >= len(declared.Units) || declared.Units[i].Terraform == nil ||
			maps.EqualFunc(u.Terraform.Vars, declared.Units[i].Terraform.Vars, func(a, b any) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
			continue
		}
		bp, ok := e.cfg.Catalog.Service(u.Service)
		if !ok {
			continue
		}
		req := catalog.Request{Flags: bp.DeclaredFlags(declared.Units[i].Values), Env: adopted.Env, Variant: e.cfg.Variants[adopted.Env]}
		flags, changed := bp.AdoptedFlags(req, u.Terraform.Vars)
		if len(changed) == 0 {
			continue
		}
		req.Flags = flags
		r, err := bp.Render(req)
		if err != nil {
			e.log.Warn("rendering adopted values", "service", u.Service, "err", err)
			continue
		}
		nu := u
		nu.Values = map[string]string{}
		for name, v := range r.Values {
			nu.Values[name] = v.Text
		}
		if u.Salt != nil && r.Salt != nil {
			part := *u.Salt
			part.Pillar = r.Salt.Pillar
			nu.Salt = &part
		}
		if u.Nomad != nil && r.Nomad != nil && u.Nomad.Adopted == nil {
			part := *u.Nomad
			part.Vars = r.Nomad.Vars
			nu.Nomad = &part
		}
		adopted.Units[i] = nu
		names := make([]string, 0, len(changed))
		for name := range changed {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			adopted.AdoptedValues = append(adopted.AdoptedValues, fmt.Sprintf("--%s %s → %s", name, changed[name][0], changed[name][1]))
		}
	}
	return adopted
}
