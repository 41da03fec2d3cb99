package bot

import (
	"context"
	"errors"
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// decision is what one reaction did to a plan, worked out inside the store transaction and
// acted on after it commits.
type decision int

const (
	ignored   decision = iota // nothing to say (a duplicate, an unrelated emoji)
	counted                   // an approval counted; more are needed
	approved                  // the last approval needed: start the run
	rejected                  // the plan is rejected
	withdrawn                 // an approval was taken back
	halting                   // a ❌ on an approved plan: cancel it before its run starts, or stop the run
	lapsed                    // the plan was past its expiry: it expires now
)

// vote applies the approval policy to a ✅ or ❌ on a preview post. It is idempotent: a
// redelivered reaction changes nothing the first one did not. The reaction table
// (reactions.go) calls it on the conversation's turn, after triage.
func (e *Engine) vote(ctx context.Context, a adapters.Adapter, r adapters.Reaction) answer {
	vote := adapters.VoteOf(r.Emoji)
	if r.User.Bot || vote == adapters.NoVote {
		return answer{}
	}
	p, err := e.st.PlanByPost(ctx, r.Post)
	if errors.Is(err, store.ErrNotFound) && e.awaitPosting(ctx) {
		p, err = e.st.PlanByPost(ctx, r.Post) // its preview was being recorded (previewposting.go)
	}
	if errors.Is(err, store.ErrNotFound) {
		return e.onTheRequest(ctx, r, vote) // on the request, or on some other post
	}
	if err != nil {
		e.log.Error("finding plan for reaction", "post", r.Post.ID, "err", err)
		return answer{}
	}
	if ok, why := e.asShown(ctx, a, p, r); !ok { // what the preview shows (stillshown.go)
		return why
	}
	code := e.judgeCode(ctx, p, false) // the policy as code's decisions (policyjudge.go)
	e.pinRuleHandles(ctx, a, code.rules())
	rules := e.planRules(p)
	who := e.person(ctx, a, r.User, policy.ApproverLists(rules)...)
	if denied, refusal := e.refuseDenied(ctx, a, p, r, vote, who, code); denied {
		return refusal
	}
	known := map[string]Person{who.Platform + ":" + who.ID: who}
	var d decision
	var explain string
	var verdict Verdict
	id := p.ID
	run, _ := e.st.Run(ctx, id) // for what to say about a plan that ran already
	// Every approval recorded on the plan is weighed again by the rules in force now, so the
	// people behind them are asked of the platform before the transaction; if another
	// approval was recorded meanwhile, its person is asked too and the decision made again.
	for attempt := 0; ; attempt++ {
		for _, v := range e.voters(ctx, a, p, rules, known) {
			known[v.Vote.Platform+":"+v.Vote.UserID] = v.Person
		}
		p, err = e.st.UpdatePlanAudited(ctx, id, func(sp *store.Plan) ([]store.Entry, error) {
			if _, ok := votersKnown(sp, known); !ok {
				return nil, errUnresolved
			}
			d, explain, verdict = e.decide(sp, r, vote, who, run, rules, known)
			return e.auditOf(a, sp, r, d, explain, verdict), nil
		})
		if !errors.Is(err, errUnresolved) || attempt == 2 {
			break
		}
		if p, err = e.st.Plan(ctx, id); err != nil {
			break
		}
	}
	if err != nil {
		e.log.Error("recording reaction", "plan", id, "err", err)
		return said(render.Unrecorded(id, r.User.Name, vote == adapters.Reject, r.Removed, err))
	}
	// What a decision says is posted as it is acted on, not returned: the preview's status
	// line is edited first, the run started, and a decision may say two things (act).
	e.act(ctx, a, p, r, d, explain, verdict)
	return answer{}
}

// onTheRequest answers a ✅ or ❌ put on a request whose plans wait for approval, rather than
// on their preview: it counts for nothing, and the person is told once where it would count.
// A reaction on any other post is not Eos's business.
func (e *Engine) onTheRequest(ctx context.Context, r adapters.Reaction, vote adapters.Vote) answer {
	if r.Removed {
		return answer{}
	}
	plans, err := e.st.PlansByRequest(ctx, r.Post)
	if err != nil {
		return answer{}
	}
	var ids []string
	for _, p := range plans {
		if p.State == store.PlanPending && p.Preview.ID != "" {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 || !e.once(r.Post.Platform+":"+r.Post.ID+"/"+r.User.ID+"/on-the-request") {
		return answer{}
	}
	return said(render.OnTheRequest(r.User.Name, ids, vote == adapters.Reject))
}

// errUnresolved says a plan gained an approval whose person was not asked of the platform
// before the transaction: ask, and decide again.
var errUnresolved = errors.New("an approval's person is not resolved yet")

// votersKnown are p's approvals with the people known resolves them to; ok is false when one
// is missing.
func votersKnown(p *store.Plan, known map[string]Person) ([]Voter, bool) {
	out := make([]Voter, 0, len(p.Approvals))
	for _, v := range p.Approvals {
		who, ok := known[v.Platform+":"+v.UserID]
		if !ok {
			return nil, false
		}
		out = append(out, Voter{Vote: v, Person: who, Self: who.Is(p.Request.Platform, p.Requester.ID)})
	}
	return out, true
}

// decide changes p for reaction r by who under rules (the policy in force now); it runs inside
// the store's transaction, so who and every earlier approver (known) are resolved before it.
// run is the plan's run, if it has one.
func (e *Engine) decide(p *store.Plan, r adapters.Reaction, vote adapters.Vote, who Person, run *store.Run, rules []Rule, known map[string]Person) (decision, string, Verdict) {
	user, now := r.User.Name, e.now()
	self := who.Is(p.Request.Platform, p.Requester.ID)
	voted := slices.IndexFunc(p.Approvals, func(v store.Vote) bool { return who.Is(v.Platform, v.UserID) })
	if p.State == store.PlanBlocked {
		d, explain := blockedAnswer(e, p, who, r, vote)
		return d, explain, Verdict{}
	}
	judged := func() Verdict {
		voters, _ := votersKnown(p, known)
		return Judge(rules, voters)
	}
	// A person who approved adds or takes back one of several approving emoji: the approval
	// stands while one is left (approvalemoji.go). A late one on a lapsed plan expires it below.
	open := p.State == store.PlanPending && (r.Removed || !now.After(p.Expires)) || p.State == store.PlanApproved && p.RunStarted.IsZero()
	if vote == adapters.Approve && voted >= 0 && open && anotherApprovalShown(&p.Approvals[voted], r) {
		return ignored, "", Verdict{}
	}
	switch {
	case p.State == store.PlanPreview:
		return ignored, render.PreviewOnly(p.ID, p.Plan.Spec.Verb, p.Plan.Spec.Target), Verdict{}
	case r.Removed && vote == adapters.Approve && p.State == store.PlanPending && voted >= 0:
		p.Approvals = slices.Delete(p.Approvals, voted, voted+1)
		p.Updated = now
		return withdrawn, "", judged()
	case r.Removed && vote == adapters.Approve && p.State == store.PlanApproved && p.RunStarted.IsZero() && voted >= 0:
		// Taken back before the run started: the run starts only if the rest still suffice.
		p.Approvals = slices.Delete(p.Approvals, voted, voted+1)
		p.Updated = now
		v := judged()
		if !v.Satisfied() {
			p.State, p.Held = store.PlanPending, nil
		}
		return withdrawn, "", v
	case r.Removed && vote == adapters.Approve && voted >= 0 && run != nil && run.Finished.IsZero():
		return ignored, render.WithdrawnTooLate(p.ID, user, run), Verdict{}
	case r.Removed:
		return ignored, "", Verdict{}
	case vote == adapters.Reject && p.State == store.PlanApproved && p.Outcome == nil:
		return halting, "", Verdict{} // halt (stop.go) judges who may, and says what happened
	case p.State == store.PlanPending && now.After(p.Expires):
		p.State, p.Updated = store.PlanExpired, now
		return lapsed, render.ExpiredOnVote(p.ID, p.Expires, p.Text), Verdict{}
	case p.State != store.PlanPending:
		if voted >= 0 || (p.Rejection != nil && who.Is(p.Rejection.Platform, p.Rejection.UserID)) ||
			(p.Cancellation != nil && p.Cancellation.By != nil && who.Is(p.Cancellation.By.Platform, p.Cancellation.By.UserID)) {
			return ignored, "", Verdict{} // the same person's reaction, delivered again
		}
		if run != nil {
			return ignored, render.AlreadyRan(p.ID, run), Verdict{}
		}
		return ignored, render.NotPendingOnVote(p.ID, p.State), Verdict{}
	case vote == adapters.Reject:
		if !MayReject(rules, who, self) {
			return ignored, e.notAllowed(p, who, "reject", "approvers: "+render.RulesWho(rules)), Verdict{}
		}
		p.State, p.Updated = store.PlanRejected, now
		p.Rejection = &store.Vote{User: user, UserID: r.User.ID, Platform: r.Post.Platform, At: now}
		return rejected, "", Verdict{}
	}
	if ok, why := MayApprove(rules, who, self); !ok {
		return ignored, e.notAllowed(p, who, "approve", why), Verdict{}
	}
	if voted >= 0 {
		return ignored, "", Verdict{}
	}
	p.Approvals = append(p.Approvals, store.Vote{User: user, UserID: r.User.ID, Platform: r.Post.Platform, At: now, Emoji: []string{r.Emoji}})
	p.Updated = now
	v := judged()
	p.Needed = v.Counting(p.Approvals) + v.Needed()
	if !v.Satisfied() {
		return counted, "", v
	}
	p.State = store.PlanApproved
	return approved, "", v
}

// blockedAnswer answers a reaction on a plan a layer says would fail: nothing is counted and
// nothing starts, whoever reacts; an approval is answered with the reasons, once per person.
func blockedAnswer(e *Engine, p *store.Plan, who Person, r adapters.Reaction, vote adapters.Vote) (decision, string) {
	if r.Removed || vote != adapters.Approve || !e.once(p.ID+"/"+who.Platform+":"+who.ID+"/blocked") {
		return ignored, ""
	}
	return ignored, render.WouldFail(p.ID, p.Plan.Failures(), render.TypedRequest(p.Text))
}

// notAllowed explains a refused reaction once per plan and person, so repeated reactions do
// not fill the thread.
func (e *Engine) notAllowed(p *store.Plan, who Person, what, why string) string {
	if !e.once(p.ID + "/" + who.Platform + ":" + who.ID + "/" + what) {
		return ""
	}
	return render.NotAllowed(who.Name, what, p.Plan.Spec.Env, why+render.HandlesPinnedElsewhere(who.Moved)+render.HandlesNobodyHeld(who.Platform, who.Vacant))
}

// once reports whether key is new to this process, so a refusal is said once per person and
// post however often the reaction is delivered (approvals and 🔧 alike).
func (e *Engine) once(key string) bool {
	e.chat.mu.Lock()
	defer e.chat.mu.Unlock()
	if e.chat.warned[key] {
		return false
	}
	e.chat.warned[key] = true
	return true
}

// auditOf is what the audit log records of decision d; it is written in the transaction that
// records the decision.
func (e *Engine) auditOf(a adapters.Adapter, p *store.Plan, r adapters.Reaction, d decision, explain string, v Verdict) []store.Entry {
	entry := e.entry(store.Entry{User: r.User.Name, UserID: r.User.ID, Platform: a.Name(), PlanID: p.ID, Hash: p.Plan.Hash,
		Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env})
	switch {
	case d == counted || d == approved:
		entry.Kind, entry.Text = "approval", "approval: "+render.Progress(v)
	case d == rejected:
		entry.Kind, entry.Text = "rejection", "rejected"
	case d == withdrawn:
		entry.Kind, entry.Text = "withdrawal", "approval withdrawn: "+render.Progress(v)
	case explain != "" && r.User.Name != "":
		entry.Kind, entry.Text = "refusal", explain
	default:
		return nil
	}
	return []store.Entry{entry}
}

// act shows what a decision means, in the preview's status line (approvalstatus.go) or, where
// that cannot be edited, in the thread, and starts the run when the plan is approved.
func (e *Engine) act(ctx context.Context, a adapters.Adapter, p *store.Plan, r adapters.Reaction, d decision, explain string, v Verdict) {
	e.m.approvals.WithLabelValues(outcomeOf(d, explain)).Inc()
	if d == approved {
		e.start(a, p) // first: its stop switch then exists for a cancel typed right after
	}
	if s, ok := e.stopOf(p.ID); ok && d == withdrawn {
		s.poke() // a run waiting for space (held.go) looks at the plan now
	}
	shown := d != ignored && d != halting && e.showStatus(ctx, p.ID)
	if d == rejected && !shown {
		e.say(ctx, a, p.Preview, render.Rejected(p.ID, r.User.Name))
	}
	if explain != "" {
		e.say(ctx, a, p.Preview, render.Reply(explain))
	}
	if d == counted && !shown {
		e.say(ctx, a, p.Preview, render.ApprovalCounted(p.ID, r.User.Name, v))
	}
	if d == halting {
		e.halt(ctx, a, p.Preview, p, r.User, e.person(ctx, a, r.User, policy.ApproverLists(e.planRules(p))...))
	}
}

func outcomeOf(d decision, explain string) string {
	switch d {
	case counted, approved:
		return "approval"
	case rejected:
		return "rejection"
	case withdrawn:
		return "withdrawal"
	}
	if explain != "" {
		return "refused"
	}
	return "ignored"
}
