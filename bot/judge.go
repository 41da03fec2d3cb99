package bot

import (
	"context"
	"errors"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// The policy in force now judges every plan: a reaction, a withdrawal, the start-up catch-up,
// the check before a run starts, `why` and the preview's status line all take the plan's
// rules from policy() and weigh every recorded approval against them again (Judge), asking
// the platform who each approver is now. Nothing about the rule is stored with a plan: a
// policy changed while a plan waits (a restart with a new configuration, SetPolicy on reload)
// governs it from that moment.

// policy is the approval policy in force now.
func (e *Engine) policy() Policy {
	e.pol.mu.RLock()
	defer e.pol.mu.RUnlock()
	return e.pol.policy
}

// SetPolicy puts p in force, as a configuration reload does, and judges every open plan by
// it at once (rejudge): approvals it no longer admits stop counting, plans it no longer
// lets run go back to waiting, and a plan whose approvals now suffice runs. A zero p means
// DefaultPolicy, as in New.
func (e *Engine) SetPolicy(ctx context.Context, p Policy) {
	if p.Unset() {
		p = DefaultPolicy()
	}
	e.pol.mu.Lock()
	e.pol.policy = p
	e.pol.mu.Unlock()
	e.log.Info("approval policy reloaded")
	e.LogPolicy(e.log)
	select {
	case <-e.runs.ready:
		e.pinPolicyHandles(ctx, e.chat.all())
		e.rejudge(ctx)
	default:
		// Run has not recovered yet; its recovery judges every open plan by this policy.
	}
}

// judgement is a plan's rules under the policy in force now and its approvals weighed by them.
type judgement struct {
	rules   []Rule
	verdict Verdict
	// code is the policy as code's decisions on the plan (policyjudge.go); its requires are
	// among rules already.
	code codeVerdict
}

// need states the rules, for the preview's rule line and `why`.
func (j judgement) need(requester string) string { return render.RulesNeed(j.rules, requester) }

// judge weighs p's recorded approvals by the rules in force now, asking a (the platform of
// p's preview) who each approver is. Outside store transactions only: it does I/O.
func (e *Engine) judge(ctx context.Context, a adapters.Adapter, p *store.Plan) judgement {
	code := e.judgeCode(ctx, p, false)
	e.pinRuleHandles(ctx, a, code.rules()) // handles.go: first looked up now, before anyone reacts
	rules := append(e.policy().Rules(p.Plan), code.rules()...)
	return judgement{rules: rules, verdict: Judge(rules, e.voters(ctx, a, p, rules, nil)), code: code}
}

// voters resolves p's approvals into the people behind them now. known holds people resolved
// already, by platform:id; an approval from another platform than a's names nobody a can
// confirm, so it counts for no rule.
func (e *Engine) voters(ctx context.Context, a adapters.Adapter, p *store.Plan, rules []Rule, known map[string]Person) []Voter {
	out := make([]Voter, 0, len(p.Approvals))
	for _, v := range p.Approvals {
		who, ok := known[v.Platform+":"+v.UserID]
		if !ok {
			who = Person{Platform: v.Platform, ID: v.UserID, Name: v.User}
			if a != nil && (v.Platform == "" || v.Platform == a.Name()) {
				who = e.person(ctx, a, adapters.User{ID: v.UserID, Name: v.User}, policy.ApproverLists(rules)...)
			}
		}
		if who.Platform == "" && a != nil {
			who.Platform = a.Name()
		}
		out = append(out, Voter{Vote: v, Person: who, Self: who.Is(p.Request.Platform, p.Requester.ID)})
	}
	return out
}

// unjudged is the judgement of a plan nobody has approved yet, under the policy in force now.
func (e *Engine) unjudged(p *store.Plan) judgement {
	code := e.cachedCode(p)
	rules := append(e.policy().Rules(p.Plan), code.rules()...)
	return judgement{rules: rules, verdict: Judge(rules, nil), code: code}
}

// rejudge judges every pending plan by the policy in force now, at start-up and when the
// policy changes: its expiry follows the current ttl from its creation, it runs if its
// approvals now suffice, and its preview's status line is shown again, naming approvals that
// no longer count. Approved plans are judged again just before their run starts (execute),
// and at start-up by Recover.
func (e *Engine) rejudge(ctx context.Context) {
	pending, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool { return p.State == store.PlanPending })
	if err != nil {
		e.log.Error("reading pending plans to judge them by the current policy", "err", err)
		return
	}
	for _, p := range pending {
		if a, ok := e.adapter(p.Preview.Platform); ok {
			e.rejudgePending(ctx, a, p)
		}
	}
}

// rejudgePending applies the current policy's ttl to pending plan p and runs it when its
// approvals now suffice; otherwise it shows its status again (a rule's count or approvers may
// have changed).
func (e *Engine) rejudgePending(ctx context.Context, a adapters.Adapter, p *store.Plan) {
	ttl := e.policy().For(p.Plan.Spec.Env, p.Plan.Spec.Verb).TTL
	changed := false
	if expires := p.Created.Add(ttl); !p.Created.IsZero() && !expires.Equal(p.Expires) {
		changed = true
		if _, err := e.st.UpdatePlan(ctx, p.ID, func(sp *store.Plan) error {
			if sp.State != store.PlanPending {
				return errNotPending
			}
			sp.Expires = expires
			return nil
		}); err != nil {
			return
		}
		p.Expires = expires
	}
	if e.now().After(p.Expires) {
		e.ExpireDue(ctx)
		return
	}
	j := e.judge(ctx, a, p)
	if len(p.Approvals) == 0 || !j.verdict.Satisfied() || j.code.denied() {
		// The preview is shown again only when what it says changed: its expiry, the count
		// the rules ask, approvals to weigh (an edit would drop what a repost added), or the
		// decisions of a policy set in force (a deny replaces the reaction prompt).
		if needed := j.verdict.Counting(p.Approvals) + j.verdict.Needed(); changed || needed != p.Needed || len(p.Approvals) > 0 || e.codeShown() {
			if needed != p.Needed {
				_, _ = e.st.UpdatePlan(ctx, p.ID, func(sp *store.Plan) error { sp.Needed = needed; return nil })
			}
			e.showStatus(ctx, p.ID)
		}
		return
	}
	p, err := e.st.UpdatePlanAudited(ctx, p.ID, func(sp *store.Plan) ([]store.Entry, error) {
		if sp.State != store.PlanPending || len(sp.Approvals) != len(p.Approvals) {
			return nil, errNotPending // changed meanwhile: its own reaction judged it
		}
		sp.State, sp.Updated = store.PlanApproved, e.now()
		return []store.Entry{e.entry(store.Entry{Kind: "approval", PlanID: sp.ID, Hash: sp.Plan.Hash, Service: sp.Plan.Spec.Target, Env: sp.Plan.Spec.Env,
			Text: "approved: under the current policy the approvals it has suffice (" + render.Progress(j.verdict) + ")"})}, nil
	})
	if errors.Is(err, errNotPending) || err != nil {
		return
	}
	e.showStatus(ctx, p.ID)
	e.sayAnywhere(ctx, a, p.Preview, render.NowSuffices(p.ID, j.verdict))
	e.start(a, p)
}

// Policy is the approval policy in force now.
func (e *Engine) Policy() Policy { return e.policy() }
