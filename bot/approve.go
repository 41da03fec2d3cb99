package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/eosbot/eos/adapters"
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
	lapsed                    // the plan was past its expiry: it expires now
)

// handleReaction applies the approval policy to a reaction on a preview post. It is
// idempotent: a redelivered reaction changes nothing the first one did not. HandleReaction
// (dispatch.go) calls it on the conversation's turn.
func (e *Engine) handleReaction(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	if !e.mayAct("reaction", a, r.Post) {
		return
	}
	e.triage(ctx, a, r) // 🔧, 📥 or 🔕 on a drift digest post (triage.go); no vote
	vote := adapters.VoteOf(r.Emoji)
	if r.User.Bot || vote == adapters.NoVote {
		return
	}
	p, err := e.st.PlanByPost(r.Post)
	if errors.Is(err, store.ErrNotFound) {
		return // a reaction on some other post
	}
	if err != nil {
		e.log.Error("finding plan for reaction", "post", r.Post.ID, "err", err)
		return
	}
	ep := e.cfg.Policy.ForPlan(p.Plan)
	who := e.person(ctx, a, r.User, ep.Approvers)
	var d decision
	var explain string
	id := p.ID
	run, _ := e.st.Run(id) // for what to say about a plan that ran already
	p, err = e.st.UpdatePlanAudited(id, func(p *store.Plan) ([]store.Entry, error) {
		d, explain = e.decide(p, r, vote, who, run)
		return e.auditOf(a, p, r, d, explain), nil
	})
	if err != nil {
		e.log.Error("recording reaction", "plan", id, "err", err)
		return
	}
	e.act(ctx, a, p, r, d, explain)
}

// decide changes p for reaction r by who; it runs inside the store's transaction, so who's
// groups are resolved before it. run is the plan's run, if it has one.
func (e *Engine) decide(p *store.Plan, r adapters.Reaction, vote adapters.Vote, who Person, run *store.Run) (decision, string) {
	ep := e.cfg.Policy.ForPlan(p.Plan)
	user, now := r.User.Name, e.now()
	self := who.Is(p.Request.Platform, p.Requester.ID)
	voted := slices.IndexFunc(p.Approvals, func(v store.Vote) bool { return who.Is(v.Platform, v.UserID) })
	if p.State == store.PlanBlocked {
		return blockedAnswer(e, p, who, r, vote)
	}
	switch {
	case p.State == store.PlanPreview:
		return ignored, fmt.Sprintf("Plan %s is a preview only and never runs. To apply it: @eos %s %s", p.ID, p.Plan.Spec.Verb, p.Plan.Spec.Target)
	case r.Removed && vote == adapters.Approve && p.State == store.PlanPending && voted >= 0:
		p.Approvals = slices.Delete(p.Approvals, voted, voted+1)
		p.Updated = now
		return withdrawn, ""
	case r.Removed:
		return ignored, ""
	case p.State == store.PlanPending && now.After(p.Expires):
		p.State, p.Updated = store.PlanExpired, now
		return lapsed, fmt.Sprintf("Plan %s expired at %s: nothing changed. Ask again for a fresh plan: @eos %s", p.ID, p.Expires.UTC().Format("15:04 UTC"), p.Text)
	case p.State != store.PlanPending:
		if voted >= 0 || (p.Rejection != nil && who.Is(p.Rejection.Platform, p.Rejection.UserID)) {
			return ignored, "" // the same person's reaction, delivered again
		}
		if run != nil {
			return ignored, alreadyRan(p.ID, run)
		}
		return ignored, fmt.Sprintf("Plan %s is %s: nothing started. Ask again for a new plan.", p.ID, p.State)
	case vote == adapters.Reject:
		if !ep.MayReject(who, self) {
			return ignored, e.notAllowed(p, who, "reject", "approvers: "+ep.who())
		}
		p.State, p.Updated = store.PlanRejected, now
		p.Rejection = &store.Vote{User: user, UserID: r.User.ID, Platform: r.Post.Platform, At: now}
		return rejected, ""
	}
	if ok, why := ep.MayApprove(who, self); !ok {
		return ignored, e.notAllowed(p, who, "approve", why)
	}
	if voted >= 0 {
		return ignored, ""
	}
	p.Approvals = append(p.Approvals, store.Vote{User: user, UserID: r.User.ID, Platform: r.Post.Platform, At: now})
	p.Updated = now
	if len(p.Approvals) < p.Needed {
		return counted, ""
	}
	p.State = store.PlanApproved
	return approved, ""
}

// blockedAnswer answers a reaction on a plan a layer says would fail: nothing is counted and
// nothing starts, whoever reacts; an approval is answered with the reasons, once per person.
func blockedAnswer(e *Engine, p *store.Plan, who Person, r adapters.Reaction, vote adapters.Vote) (decision, string) {
	if r.Removed || vote != adapters.Approve || !e.once(p.ID+"/"+who.Platform+":"+who.ID+"/blocked") {
		return ignored, ""
	}
	return ignored, fmt.Sprintf("Plan %s cannot be approved: it would fail.\n%s\nNothing changed. Fix what fails, then ask again: @eos %s",
		p.ID, strings.Join(p.Plan.Failures(), "\n"), typedRequest(p.Text))
}

// alreadyRan answers an approval of a plan whose run exists: what became of it.
func alreadyRan(id string, run *store.Run) string {
	what := string(run.State)
	if !run.Finished.IsZero() {
		what += " " + run.Finished.UTC().Format("15:04 UTC")
	} else {
		what += " since " + run.Started.UTC().Format("15:04 UTC")
	}
	return fmt.Sprintf("Plan %s already ran (run %s, %s): nothing started; ask again for a new plan.", id, run.ID, what)
}

// notAllowed explains a refused reaction once per plan and person, so repeated reactions do
// not fill the thread.
func (e *Engine) notAllowed(p *store.Plan, who Person, what, why string) string {
	if !e.once(p.ID + "/" + who.Platform + ":" + who.ID + "/" + what) {
		return ""
	}
	return fmt.Sprintf("@%s can't %s %s plans (%s). Nothing changed.", who.Name, what, p.Plan.Spec.Env, why)
}

// once reports whether key is new to this process, so a refusal is said once per person and
// post however often the reaction is delivered (approvals and 🔧 alike).
func (e *Engine) once(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.warned[key] {
		return false
	}
	e.warned[key] = true
	return true
}

// auditOf is what the audit log records of decision d; it is written in the transaction that
// records the decision.
func (e *Engine) auditOf(a adapters.Adapter, p *store.Plan, r adapters.Reaction, d decision, explain string) []store.Entry {
	entry := e.entry(store.Entry{User: r.User.Name, UserID: r.User.ID, Platform: a.Name(), PlanID: p.ID, Hash: p.Plan.Hash,
		Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env})
	switch {
	case d == counted || d == approved:
		entry.Kind, entry.Text = "approval", fmt.Sprintf("approval %d of %d", len(p.Approvals), p.Needed)
	case d == rejected:
		entry.Kind, entry.Text = "rejection", "rejected"
	case d == withdrawn:
		entry.Kind, entry.Text = "withdrawal", fmt.Sprintf("approval withdrawn, %d of %d left", len(p.Approvals), p.Needed)
	case explain != "" && r.User.Name != "":
		entry.Kind, entry.Text = "refusal", explain
	default:
		return nil
	}
	return []store.Entry{entry}
}

// act shows what a decision means, in the preview's status line (approvalstatus.go) or, where
// that cannot be edited, in the thread, and starts the run when the plan is approved.
func (e *Engine) act(ctx context.Context, a adapters.Adapter, p *store.Plan, r adapters.Reaction, d decision, explain string) {
	e.m.approvals.WithLabelValues(outcomeOf(d, explain)).Inc()
	shown := d != ignored && e.showStatus(ctx, p.ID)
	if d == rejected && !shown {
		e.say(ctx, a, p.Preview, reply(fmt.Sprintf("Plan %s rejected by @%s. Nothing changed.", p.ID, r.User.Name)))
	}
	if explain != "" {
		e.say(ctx, a, p.Preview, reply(explain))
	}
	if d == counted && !shown {
		e.say(ctx, a, p.Preview, reply(fmt.Sprintf("Approval %d of %d for plan %s from @%s. Waiting for %d more.",
			len(p.Approvals), p.Needed, p.ID, r.User.Name, p.Needed-len(p.Approvals))))
	}
	if d == approved {
		e.start(a, p)
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
