package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// Policy as code (bot/policy/rego) judges every plan beside the approval policy, over the plan's
// input document (policyinput.go). A deny means no reaction can run the plan: its preview
// leads with ⛔ and the rule instead of the reaction prompt; a require is one more approval
// rule (Rule) that must hold on its own; a warn is shown and changes nothing. The set in force
// now judges: its decisions on a plan are kept in memory per plan, plan hash and set SHA-256,
// so a reload (a new SHA-256) or a restart (nothing kept) judges every plan again, and the run
// judges its plan afresh just before it applies (refreshCode). Every judgement that differs
// from the last one on that plan writes audit lines naming the set's SHA-256.

// codeState is the policy set in force and its last decisions on each plan.
type codeState struct {
	mu    sync.Mutex
	set   *rego.Set
	zone  *time.Location
	cache map[string]codeVerdict // by plan id
	// shown is true once a set was in force in this process: previews may show its decisions,
	// so every re-judgement shows them again, also after a reload drops the set.
	shown bool
}

// codeVerdict is what the set with SHA-256 sha decided about a plan with hash hash. A zero
// codeVerdict (no set in force) decides nothing.
type codeVerdict struct {
	sha, hash string
	decisions []rego.Decision
}

// of are the decisions of one kind.
func (v codeVerdict) of(kind string) []rego.Decision { return v.view().Of(kind) }

// denied reports whether the set denies the plan: no reaction can run it.
func (v codeVerdict) denied() bool { return v.view().Denied() }

// rules are the set's require decisions as approval rules, each holding on its own. The
// requester's own approval never counts for one: a rule that asks someone more asks someone
// else.
func (v codeVerdict) rules() []Rule {
	var out []Rule
	for _, d := range v.of(rego.Require) {
		out = append(out, Rule{Name: d.Rule, Approvers: d.Approvers, Approvals: d.Approvals, Because: d.Msg})
	}
	return out
}

// SetPolicyCode puts set in force (nil: no policy as code), as a reload does. It judges
// nothing by itself: SetPolicy, which a reload calls after it, judges every waiting plan again.
func (e *Engine) SetPolicyCode(set *rego.Set) {
	e.code.mu.Lock()
	e.code.set = set // decisions kept are keyed by the set's SHA-256: a changed set judges again
	e.code.shown = e.code.shown || set != nil
	e.code.mu.Unlock()
	if set != nil {
		e.log.Info("policy set in force", "sha256", set.SHA256())
	} else {
		e.log.Info("no policy set in force")
	}
}

// codeSet is the policy set in force, nil when there is none.
func (e *Engine) codeSet() *rego.Set {
	e.code.mu.Lock()
	defer e.code.mu.Unlock()
	return e.code.set
}

// PolicyCodeSHA256 is the SHA-256 of the policy set in force, "" when there is none.
func (e *Engine) PolicyCodeSHA256() string {
	e.code.mu.Lock()
	defer e.code.mu.Unlock()
	if e.code.set == nil {
		return ""
	}
	return e.code.set.SHA256()
}

// codeShown reports whether a waiting plan's preview may show decisions of a set, now or
// before a reload: a re-judgement then shows the preview again.
func (e *Engine) codeShown() bool {
	e.code.mu.Lock()
	defer e.code.mu.Unlock()
	return e.code.shown || e.code.set != nil
}

// cachedCode is the set in force's last decisions on p, without judging: zero when the set
// has not judged this plan as it is (call judgeCode first, outside store transactions).
func (e *Engine) cachedCode(p *store.Plan) codeVerdict {
	e.code.mu.Lock()
	defer e.code.mu.Unlock()
	if e.code.set == nil {
		return codeVerdict{}
	}
	v, ok := e.code.cache[p.ID]
	if !ok || v.sha != e.code.set.SHA256() || v.hash != p.Plan.Hash {
		return codeVerdict{sha: e.code.set.SHA256(), hash: p.Plan.Hash}
	}
	return v
}

// planRules are p's approval rules now: the approval policy's, then the set's requires as
// last judged (cachedCode). No I/O: callable inside store transactions.
func (e *Engine) planRules(p *store.Plan) []Rule {
	return append(e.policy().Rules(p.Plan), e.cachedCode(p).rules()...)
}

// judgeCode has the set in force judge p, unless it judged p as it is already (fresh forces
// it: the run's last look before applying), and writes the audit lines of a judgement that
// differs from the last. Outside store transactions only: it asks the platform which groups
// the requester is in.
func (e *Engine) judgeCode(ctx context.Context, p *store.Plan, fresh bool) codeVerdict {
	v, entries := e.evalCode(ctx, p, fresh)
	for _, en := range entries {
		e.audit(ctx, en)
	}
	return v
}

// evalCode is judgeCode without writing the audit lines: it returns them, for a caller that
// writes them in its own transaction (propose, with the plan).
func (e *Engine) evalCode(ctx context.Context, p *store.Plan, fresh bool) (codeVerdict, []store.Entry) {
	v, entries, _ := e.evalCodeInput(ctx, p, fresh)
	return v, entries
}

// evalCodeInput is evalCode that also returns the input document the set judged (nil when it
// judged nothing now: no set, or its decisions were kept), for a caller that keeps it.
func (e *Engine) evalCodeInput(ctx context.Context, p *store.Plan, fresh bool) (codeVerdict, []store.Entry, map[string]any) {
	e.code.mu.Lock()
	set, zone, last := e.code.set, e.code.zone, e.code.cache[p.ID]
	e.code.mu.Unlock()
	if set == nil {
		return codeVerdict{}, nil, nil
	}
	if !fresh && last.sha == set.SHA256() && last.hash == p.Plan.Hash || closed(p) {
		if last.sha != set.SHA256() || last.hash != p.Plan.Hash {
			last = codeVerdict{} // a plan that ended is not judged again: its audit lines say how it was
		}
		return last, nil, nil
	}
	input := e.inputOf(ctx, p, set.Groups(), zone)
	v := codeVerdict{sha: set.SHA256(), hash: p.Plan.Hash, decisions: set.Judge(ctx, input)}
	e.code.mu.Lock()
	if e.code.set == set {
		if e.code.cache == nil || len(e.code.cache) >= maxCodeCache {
			e.code.cache = map[string]codeVerdict{} // judged again when asked: the set in force decides
		}
		e.code.cache[p.ID] = v
	}
	e.code.mu.Unlock()
	if last.sha == v.sha && last.hash == v.hash && slices.EqualFunc(last.decisions, v.decisions, sameDecision) {
		return v, nil, input
	}
	return v, e.codeAudit(p, v), input
}

// inputOf is plan p's input document now (policyinput.go): the requester with the groups
// among groups the platform confirms, the declared values of p's units before the change, the
// time in UTC and zone.
func (e *Engine) inputOf(ctx context.Context, p *store.Plan, groups []string, zone *time.Location) map[string]any {
	requester := Person{Platform: p.Request.Platform, ID: p.Requester.ID, Name: p.Requester.Name}
	if a, ok := e.adapter(p.Request.Platform); ok && p.Requester.ID != "" {
		requester = e.person(ctx, a, p.Requester, groups)
	}
	declared := map[string]map[string]string{}
	for _, u := range p.Plan.Spec.Units {
		if d, err := e.st.Declared(ctx, u.Key(p.Plan.Spec.Env)); err == nil && !d.Destroyed {
			// The declaring run's spec may hold other units too (nextcloud's holds authentik).
			for _, du := range d.Spec.Units {
				if du.Service == u.Service {
					declared[u.Service] = du.Values
				}
			}
		}
	}
	return policyInput(p, requester, declared, e.now(), zone)
}

// maxCodeCache bounds the decisions kept in memory; past it they are forgotten and the plans
// still open judged again when next asked.
const maxCodeCache = 4096

// closed reports whether p ended without running, or its run started: nothing the set decides
// now could change it.
func closed(p *store.Plan) bool {
	switch p.State {
	case store.PlanRejected, store.PlanExpired, store.PlanCancelled, store.PlanSuperseded:
		return true
	}
	return !p.RunStarted.IsZero()
}

func sameDecision(a, b rego.Decision) bool {
	return a.Kind == b.Kind && a.Msg == b.Msg && a.Rule == b.Rule && a.Where == b.Where &&
		a.Approvals == b.Approvals && slices.Equal(a.Approvers, b.Approvers)
}

// codeAudit are the audit lines of v: one per decision, or one saying the set decided
// nothing, each naming the set's SHA-256.
func (e *Engine) codeAudit(p *store.Plan, v codeVerdict) []store.Entry {
	base := store.Entry{Kind: "policy", PlanID: p.ID, Hash: p.Plan.Hash, Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env}
	if len(v.decisions) == 0 {
		base.Text = "policy set sha256:" + v.sha + " decided nothing about this plan"
		return []store.Entry{e.entry(base)}
	}
	out := make([]store.Entry, 0, len(v.decisions))
	for _, d := range v.decisions {
		en := base
		en.Text = d.Kind + ": " + d.String() + render.RequireWho(d) + " · policy set sha256:" + v.sha
		out = append(out, e.entry(en))
	}
	return out
}

// refuseDenied answers an approval of pending plan p that the set denies: nothing is counted,
// and the person is told why, once, in the preview's thread. It reports whether it refused.
func (e *Engine) refuseDenied(ctx context.Context, a adapters.Adapter, p *store.Plan, r adapters.Reaction, vote adapters.Vote, who Person, v codeVerdict) (bool, answer) {
	if !v.denied() || p.State != store.PlanPending || vote != adapters.Approve {
		return false, answer{}
	}
	if r.Removed || !e.once(p.ID+"/"+who.Platform+":"+who.ID+"/denied") {
		return true, answer{}
	}
	e.audit(ctx, store.Entry{Kind: "refusal", User: r.User.Name, UserID: r.User.ID, Platform: a.Name(), PlanID: p.ID, Hash: p.Plan.Hash,
		Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env, Text: fmt.Sprintf("approval refused: denied by policy set sha256:%s", v.sha)})
	return true, answer{doc: render.Denied(p.ID, v.view()), to: p.Preview}
}

// haltDenied stops approved plan p before its run starts because the set in force now (v)
// denies it: the plan is cancelled, its audit line names the rules and the set, and the
// thread is told. Nothing was applied, so nothing is rolled back.
func (e *Engine) haltDenied(ctx context.Context, a adapters.Adapter, p *store.Plan, v codeVerdict) {
	spec, now := p.Plan.Spec, e.now()
	rules := make([]string, 0)
	for _, d := range v.of(rego.Deny) {
		rules = append(rules, d.Rule)
	}
	reason := "the policy in force denies it (" + strings.Join(rules, ", ") + ")"
	if _, err := e.st.UpdatePlanAudited(ctx, p.ID, func(sp *store.Plan) ([]store.Entry, error) {
		if sp.State != store.PlanApproved || !sp.RunStarted.IsZero() {
			return nil, errNotPending
		}
		sp.State, sp.Updated = store.PlanCancelled, now
		sp.Cancellation = &store.Cancellation{Reason: reason, At: now}
		return []store.Entry{e.entry(store.Entry{Kind: "cancel", PlanID: sp.ID, Hash: sp.Plan.Hash, Service: spec.Target, Env: spec.Env,
			Text: "halted before applying: " + reason + "; nothing was applied · policy set sha256:" + v.sha})}, nil
	}); err != nil {
		e.log.Error("halting a plan the policy now denies", "plan", p.ID, "err", err)
		return
	}
	e.showStatus(ctx, p.ID)
	e.sayAnywhere(ctx, a, p.Preview, render.HaltedByPolicy(p.ID, v.view(), render.TypedRequest(p.Text)))
}
