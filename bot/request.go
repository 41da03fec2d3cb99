package bot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/eosbot/eos/bot/render"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/compile"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// planTimeout bounds planning every layer of one request.
const planTimeout = 10 * time.Minute

// request answers create, update, destroy and operations: compile, plan, preview, and wait
// for approval.
func (e *Engine) request(ctx context.Context, c conv, in *intents.Intent) answer {
	spec, read, err := e.compileRead(ctx, in)
	if ue := (*userError)(nil); errors.As(err, &ue) && !ue.secret {
		ue.msg = e.waitingOn(ctx, c, ue.msg, e.envOf(in), in.Noun)
	}
	if err != nil {
		return e.fail(c, "planning", err)
	}
	return answerOf(e.proposeRead(ctx, c, spec, store.PlanPending, read))
}

// plan answers `plan SERVICE ...` (a preview that never runs), `plan ID [full]`, and `plan
// [full]` in a plan's thread (threadplan.go).
func (e *Engine) plan(ctx context.Context, c conv, in *intents.Intent) answer {
	if in.Noun == "" { // `plan` or `plan full`
		if p := e.threadPlan(ctx, c); p != nil {
			return said(render.FullPlan(p))
		}
		return said(render.PlanWhichPlan())
	}
	if p, err := e.st.Plan(ctx, in.Noun); err == nil && e.sees(c, p) {
		return said(render.FullPlan(p))
	}
	if _, ok := e.cfg.Catalog.Service(in.Noun); !ok {
		return said(render.NoPlanNamed(in.Noun))
	}
	preview := *in
	preview.Verb = intents.VerbCreate
	if d, err := e.st.Declared(ctx, e.envOf(in)+"/"+in.Noun); err == nil && !d.Destroyed {
		preview.Verb = intents.VerbUpdate
	}
	spec, err := e.compile(ctx, &preview)
	if err != nil {
		return e.fail(c, "planning", err)
	}
	return answerOf(e.propose(ctx, c, spec, store.PlanPreview))
}

func (e *Engine) envOf(in *intents.Intent) string {
	if in.Env != "" {
		return in.Env
	}
	return e.cfg.DefaultEnv
}

// propose plans spec, stores the plan and posts its preview in the request's thread. It
// returns the stored plan's id, or "" when no plan was stored (refused, busy, failed), and
// what to answer then. The preview is posted here, not returned: its post is recorded in the
// store (RecordPreview) so that its reactions find the plan, and its status line edited.
func (e *Engine) propose(ctx context.Context, c conv, spec executor.Spec, state store.PlanState) (string, answer) {
	return e.proposeRead(ctx, c, spec, state, nil)
}

// proposeRead is propose for a spec compiled from read (compileRead): the plan's basis keeps
// what compile read, so a unit another run declared between the compile and now makes the
// approval supersede the plan, as one declared after it does.
func (e *Engine) proposeRead(ctx context.Context, c conv, spec executor.Spec, state store.PlanState, read map[string]string) (string, answer) {
	ep := e.policy().For(spec.Env, spec.Verb)
	if state == store.PlanPending && !ep.MayRequest(e.person(ctx, c.adapter, c.msg.Author, ep.Requesters)) {
		e.audit(ctx, store.Entry{Kind: "refusal", User: c.user(), Platform: c.adapter.Name(), Service: spec.Target, Env: spec.Env, Text: "not a requester: " + c.msg.Text})
		return "", said(render.NotRequester(c.user(), spec.Env, ep.Requesters))
	}
	if busy := e.busy(ctx, store.SpecKeys(spec)); busy != "" && state == store.PlanPending {
		return "", said(render.Reply(busy))
	}
	spec.Changes = e.declaredChanges(ctx, spec)
	basis, err := e.basis(ctx, store.SpecKeys(spec)) // what the run binds its approval to (supersede.go)
	if err != nil {
		return "", e.fail(c, "reading the declared state", err)
	}
	maps.Copy(basis, read) // what the spec was compiled from, where compile looked

	planCtx, cancel := context.WithTimeout(ctx, planTimeout)
	defer cancel()
	plan, err := e.cfg.Runner.Plan(planCtx, spec)
	if err != nil {
		return "", e.fail(c, "planning", err)
	}
	if state == store.PlanPending {
		if a, ok := e.asDeclared(ctx, c, spec, plan); ok { // a reconcile, adopt or update of nothing (asdeclared.go)
			return "", a
		}
		if a, ok := e.runsNowhere(spec, plan); ok { // an operation that would do nothing (runsnowhere.go)
			return "", a
		}
	}
	if state == store.PlanPending && len(plan.Failures()) > 0 {
		state = store.PlanBlocked // a layer says it would fail: shown with why, never approved
	}
	now := e.now()
	p := &store.Plan{
		ID: planID(plan.Hash, c.msg.Post, now), State: state, Text: c.msg.Text,
		Requester: c.msg.Author, Request: c.msg.Post, Plan: plan,
		Created: now, Expires: now.Add(ep.TTL), Updated: now, Basis: basis,
	}
	verdict, judged, input := e.evalCodeInput(ctx, p, false) // the policy as code judges it (policyjudge.go)
	j := e.unjudged(p)                                       // the plan's risks and the policy's requires may ask more than its verb
	e.pinRuleHandles(ctx, c.adapter, j.code.rules())         // handles.go: looked up before anyone can react
	p.Needed = j.verdict.Needed()
	request := e.entry(store.Entry{Kind: "request", User: c.user(), Platform: c.adapter.Name(), PlanID: p.ID, Hash: plan.Hash,
		Service: spec.Target, Env: spec.Env, Text: c.msg.Text})
	if input == nil { // no policy set in force: the document a set would have judged
		input = e.planInput(ctx, p)
	}
	kept := e.keptInput(p, input, verdict.sha, verdict.decisions) // for eos policy replay (policykeep.go)
	if err := e.st.CreatePlanKeeping(ctx, p, kept, append([]store.Entry{request}, judged...)...); err != nil {
		return "", e.fail(c, "storing the plan", err)
	}
	e.m.plans.WithLabelValues(spec.Verb, spec.Env).Inc()
	// A stored plan's preview is posted and recorded even if Eos is shutting down meanwhile:
	// a preview on the platform that the store does not know would ignore its reactions.
	pctx, cancelPost := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancelPost()
	doc := previewDoc(p, j, render.VaultRow(plan, e.cfg.Runner.SecretsConfigured()))
	doc = render.WithNote(doc, e.planInFlight(ctx, spec, state == store.PlanPreview)) // a run on it now may change it (inflight.go)
	posted := e.posting()                                                             // a reaction arriving before the record waits for it (previewposting.go)
	defer posted()
	ref := e.say(pctx, c.adapter, c.msg.Post, e.planLinked(doc, p.ID))
	if ref.ID == "" {
		return p.ID, answer{}
	}
	shown := e.entry(store.Entry{Kind: "preview", Platform: c.adapter.Name(), PlanID: p.ID, Hash: plan.Hash, Service: spec.Target, Env: spec.Env,
		Text: fmt.Sprintf("preview posted, %s", planCounts(plan))})
	if cur, err := e.st.RecordPreview(pctx, p.ID, ref, shown); err != nil {
		e.log.Error("recording preview post", "plan", p.ID, "err", err)
	} else if cur != state {
		// Changed (a cancel from another thread) before the preview was recorded, so the
		// change could not edit it: show it now (approvalstatus.go).
		e.showStatus(pctx, p.ID)
	}
	return p.ID, answer{}
}

// changingVerbs are the verbs whose previews say which declared values of their target change:
// those that plan a service that is deployed already into another declared state.
var changingVerbs = map[string]bool{"update": true, "rollback": true, "reconcile": true, "adopt": true}

// declaredChanges lists the target's declared values that spec changes, old → new, each with
// the layers its blueprint hands it to ("--port 3001 → 3002 (Nomad)"), for the verbs that
// change a deployed service; nil for others, or when the target has no declared state.
func (e *Engine) declaredChanges(ctx context.Context, spec executor.Spec) []string {
	if !changingVerbs[spec.Verb] {
		return nil
	}
	d, err := e.st.Declared(ctx, spec.Env+"/"+spec.Target)
	if err != nil || d.Destroyed {
		return nil
	}
	before, after := targetUnit(d.Spec), targetUnit(spec)
	if before == nil || after == nil {
		return nil
	}
	bp, _ := e.cfg.Catalog.Service(spec.Target)
	// A value one side does not set is the blueprint's default there, which may depend on the
	// environment (grafana.ENV.test): say "default", not "unset".
	was, now := map[string]string{}, map[string]string{}
	maps.Copy(was, before.Values)
	maps.Copy(now, after.Values)
	for n := range now {
		if _, ok := was[n]; !ok {
			was[n] = "default"
		}
	}
	for n := range was {
		if _, ok := now[n]; !ok {
			now[n] = "default"
		}
	}
	return compile.NoteChanges(was, now, func(name string) string {
		if bp == nil {
			return ""
		}
		var layers []string
		for _, l := range bp.Readers(name) {
			layers = append(layers, executor.LayerName(l).Title())
		}
		return strings.Join(layers, ", ")
	})
}

// targetUnit is the spec's unit of its target, nil when it has none.
func targetUnit(spec executor.Spec) *executor.Unit {
	for i := range spec.Units {
		if spec.Units[i].Service == spec.Target {
			return &spec.Units[i]
		}
	}
	return nil
}

// busy says which run holds one of the (env/service) keys, or "" when all are free.
func (e *Engine) busy(ctx context.Context, keys []string) string {
	locks, err := e.st.Locks(ctx)
	if err != nil {
		e.log.Error("reading locks", "err", err)
		return ""
	}
	for _, l := range locks {
		if slices.Contains(keys, l.Key) {
			env, service, _ := strings.Cut(l.Key, "/")
			return render.ServiceBusy(service, env, l.Holder, l.Since)
		}
	}
	return ""
}

func planCounts(p executor.Plan) string {
	s := ""
	for _, lp := range p.Layers {
		add, change, destroy := lp.Counts()
		s += fmt.Sprintf("%s %s +%d ~%d -%d; ", lp.Layer, lp.Status, add, change, destroy)
	}
	return s
}

// planID is the short id people see: unique per request even when two plans are equal.
func planID(hash string, post adapters.PostRef, at time.Time) string {
	h := sha256.Sum256([]byte(hash + "|" + post.Platform + "|" + post.Channel + "|" + post.ID + "|" + strconv.FormatInt(at.UnixNano(), 10)))
	return hex.EncodeToString(h[:4])
}

var errNotPending = errors.New("plan is not pending")

// Preview parses, compiles and plans text as user would ask it, and renders the preview
// without storing or posting anything (`eos plan`). A mistake comes back as the Doc that
// would be posted, with a non-nil error.
func (e *Engine) Preview(ctx context.Context, text, user string) (adapters.Doc, error) {
	in, err := e.parser.Parse(text)
	if err != nil {
		return e.parseErrorDoc(err), err
	}
	switch in.Verb {
	case intents.VerbCreate, intents.VerbUpdate, intents.VerbDestroy, intents.VerbOperation, intents.VerbPlan:
	default:
		return render.NotAChange(in.VerbWord()), errors.New("not a change")
	}
	if msg := e.unknownEnv(ctx, in); msg != "" {
		return render.Reply(msg), errors.New("environment not declared")
	}
	if in.Verb == intents.VerbPlan {
		in.Verb = intents.VerbCreate
		if d, err := e.st.Declared(ctx, e.envOf(in)+"/"+in.Noun); err == nil && !d.Destroyed {
			in.Verb = intents.VerbUpdate
		}
	}
	spec, err := e.compile(ctx, in)
	if err != nil {
		return render.Reply(err.Error()), err
	}
	spec.Changes = e.declaredChanges(ctx, spec) // as propose does: the preview names what an update changes
	planCtx, cancel := context.WithTimeout(ctx, planTimeout)
	defer cancel()
	plan, err := e.cfg.Runner.Plan(planCtx, spec)
	if err != nil {
		return render.PlanningFailed(err), err
	}
	now := e.now()
	p := &store.Plan{ID: plan.Hash[:8], State: store.PlanPreview, Text: text, Requester: adapters.User{ID: user, Name: user},
		Plan: plan, Created: now, Expires: now}
	e.evalCode(ctx, p, false) // not recorded: this plan is not stored
	doc := previewDoc(p, e.unjudged(p), render.VaultRow(plan, e.cfg.Runner.SecretsConfigured()))
	return render.WithNote(doc, e.planInFlight(ctx, spec, true)), nil // a run on it now may change it
}
