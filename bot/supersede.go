package bot

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// An approval binds the exact plan it was given on: its hash (every layer's changes) and its
// basis (the declared state it was compiled against, store.Plan.Basis). When either differs
// just before the run applies, nothing is applied: the plan is superseded and its request
// answered again as things stand now.

// basisChanged names the services of approved plan p that another run declared since its spec
// was compiled (none for a plan stored before plans recorded a basis).
//
// An environment's listing in the basis (basislisting.go) counts only when the request,
// compiled again, no longer gives the spec that was approved.
func (e *Engine) basisChanged(ctx context.Context, p *store.Plan) ([]string, error) {
	if p.Basis == nil {
		return nil, nil
	}
	now, err := e.basis(ctx, slices.Collect(maps.Keys(p.Basis)))
	if err != nil {
		return nil, err
	}
	changed, listed := changedSince(p.Basis, now)
	if len(changed) == 0 && len(listed) > 0 && !e.compilesTheSame(ctx, p) {
		changed = listed
	}
	return changed, nil
}

// changedSince names the services whose declared state differs between basis was and now:
// those of the units compile read, then those an environment's listing names.
func changedSince(was, now map[string]string) (changed, listed []string) {
	for k, v := range now {
		switch {
		case was[k] == v:
		case strings.HasSuffix(k, everyService):
			listed = append(listed, listingChanged(was[k], v)...)
		default:
			_, service, _ := strings.Cut(k, "/")
			changed = append(changed, service)
		}
	}
	slices.Sort(changed)
	slices.Sort(listed)
	return changed, slices.Compact(listed)
}

// basis is the declared state of keys now: for each, the run that declared it ("" when none
// has), with "/destroyed" when that run destroyed it.
func (e *Engine) basis(ctx context.Context, keys []string) (map[string]string, error) {
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		if env, ok := strings.CutSuffix(k, everyService); ok {
			l, err := e.listingNow(ctx, env)
			if err != nil {
				return nil, err
			}
			out[k] = l
			continue
		}
		d, err := e.st.Declared(ctx, k)
		switch {
		case errors.Is(err, store.ErrNotFound):
			out[k] = ""
		case err != nil:
			return nil, err
		default:
			out[k] = basisOf(d)
		}
	}
	return out, nil
}

// basisOf is a declared state's entry in a basis.
func basisOf(d *store.Deployed) string {
	if d.Destroyed {
		return d.RunID + "/destroyed"
	}
	return d.RunID
}

// supersede ends approved plan p without applying anything, because what it was approved on
// changed (why, for the audit log; hash is the fresh plan's, when there is one; changed names
// the services another run declared meanwhile, when known), and answers its request again as
// things stand now.
func (e *Engine) supersede(ctx context.Context, a adapters.Adapter, p *store.Plan, hash, why string, changed ...string) {
	if _, uerr := e.st.UpdatePlan(ctx, p.ID, func(p *store.Plan) error {
		p.State, p.Updated = store.PlanSuperseded, e.now()
		return nil
	}); uerr != nil {
		e.log.Error("superseding plan", "plan", p.ID, "err", uerr)
	}
	e.showStatus(ctx, p.ID)
	e.audit(ctx, store.Entry{Kind: "superseded", PlanID: p.ID, Hash: hash, Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env,
		Text: why + "; the request is answered again"})
	what := p.Plan.Spec.Target
	if len(changed) > 0 {
		what = strings.Join(changed, " and ")
	}
	e.say(ctx, a, p.Preview, render.ChangedSinceApproval(p.ID, what, p.Plan.Spec.Env))
	c := conv{adapter: a, msg: adapters.Message{Post: p.Request, Author: p.Requester, Text: p.Text}}
	e.answerMessage(ctx, c, e.askAgain(ctx, c, p)) // not a handler: it says its answer
}

// askAgain answers superseded plan p's request as if it were asked now: compiled again
// against what is declared now, since the run that changed things may have created, changed or
// destroyed what it was compiled against (a create of a service deployed meanwhile is refused
// with what to ask instead; an update keeps the values another run declared meanwhile instead
// of reverting them), then planned and previewed for approval. A request Eos cannot read
// again (a plan proposed by Eos itself) is planned again from its spec.
func (e *Engine) askAgain(ctx context.Context, c conv, p *store.Plan) answer {
	in, err := e.parser.Parse(p.Text)
	if err != nil || !reasked[in.Verb] {
		return answerOf(e.propose(ctx, c, p.Plan.Spec, store.PlanPending))
	}
	if msg := e.unknownEnv(ctx, in); msg != "" {
		return said(render.Reply(msg))
	}
	switch in.Verb {
	case intents.VerbRollback:
		return e.rollback(ctx, c, in)
	case intents.VerbReconcile:
		return e.reconcile(ctx, c, in)
	case intents.VerbAdopt:
		return e.adopt(ctx, c, in)
	}
	return e.request(ctx, c, in)
}

// reasked are the verbs whose superseded plans askAgain asks again: those that propose a plan.
var reasked = map[intents.Verb]bool{intents.VerbCreate: true, intents.VerbUpdate: true, intents.VerbDestroy: true,
	intents.VerbOperation: true, intents.VerbRollback: true, intents.VerbReconcile: true, intents.VerbAdopt: true}
