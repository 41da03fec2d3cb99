package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// sweepInterval is how often pending plans are checked for expiry.
const sweepInterval = time.Minute

// Recover repairs what a previous process left behind: runs still marked running were
// interrupted (their lock is released and their progress post says so), plans approved but
// never started are started now (or wait for space again, held.go), so nothing approved is
// lost, and checks of unknown outcomes still pending are resumed.
func (e *Engine) Recover(ctx context.Context) error {
	running, err := e.st.Runs(ctx, func(r *store.Run) bool { return r.State == store.RunRunning })
	if err != nil {
		return fmt.Errorf("reading runs: %w", err)
	}
	for _, r := range running {
		final, err := e.st.FinishRun(ctx, r.ID, store.RunInterrupted, r.Layers, e.now(), nil)
		if err != nil {
			return fmt.Errorf("marking run %s interrupted: %w", r.ID, err)
		}
		e.log.Warn("run was interrupted by a restart", "run", r.ID)
		e.audit(ctx, store.Entry{Kind: "result", PlanID: r.ID, Hash: r.Hash, Service: r.Target, Env: r.Env, Text: "interrupted: Eos stopped while it ran"})
		e.showStatus(ctx, r.ID)
		if a, ok := e.adapter(final.Progress.Platform); ok {
			doc := render.Interrupted(r.ID, render.Reached(r.Layers), r.Target, r.Env)
			ed, ok := a.(adapters.Editor)
			if !ok || final.Progress.ID == "" {
				continue
			}
			err := ed.Edit(ctx, final.Progress, doc)
			switch {
			case errors.Is(err, adapters.ErrNoSuchPost):
				// The progress post is gone (a console post of the earlier session): say it anew.
				if _, err := a.Post(ctx, final.Progress.Channel, doc); err != nil {
					e.log.Warn("posting that a run was interrupted", "run", r.ID, "err", err)
				}
			case err != nil:
				e.log.Warn("editing interrupted run's post", "run", r.ID, "err", err)
			}
		}
	}
	// Nothing runs before Recover returns, so any lock still held is left over (a crash between
	// taking a plan's locks and starting its run): free it, or its units stay locked forever.
	if left, err := e.st.Locks(ctx); err == nil {
		for _, l := range left {
			if err := e.st.Unlock(ctx, []string{l.Key}, l.Holder); err == nil {
				e.log.Warn("freed a lock left over by the previous process", "key", l.Key, "holder", l.Holder)
				e.audit(ctx, store.Entry{Kind: "unlock", PlanID: l.Holder, Text: "freed lock " + l.Key + " left over by the previous process"})
			}
		}
	}
	// Read before the catch-up: a plan the catch-up approves is started by HandleReaction, and
	// starting it here as well would run it twice.
	approved, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool { return p.State == store.PlanApproved })
	if err != nil {
		return fmt.Errorf("reading plans: %w", err)
	}
	e.repostPreviews(ctx)
	if err := e.catchUpReactions(ctx); err != nil {
		return err
	}
	e.rejudge(ctx) // the policy in force now judges every plan that waited across the restart
	e.catchUpWithdrawals(ctx, approved)
	for _, p := range approved {
		if _, err := e.st.Run(ctx, p.ID); err == nil {
			continue
		}
		a, ok := e.adapter(p.Preview.Platform)
		if !ok {
			continue
		}
		if p, err = e.st.Plan(ctx, p.ID); err != nil || p.State != store.PlanApproved {
			continue // an approval taken back while Eos was down left too few
		}
		if p, _, ok := e.recheck(ctx, a, p); ok {
			e.log.Info("starting a plan approved before the restart", "plan", p.ID)
			e.start(a, p)
		}
	}
	e.resumeOutcomeChecks(ctx) // unknown.go
	return nil
}

// recheck judges an approved plan that has not started as if it were approved now: past its
// expiry it expires (an approval is not a standing order to run whenever Eos comes back), and
// under the policy in force now its approvals must still suffice (a policy tightened across
// a restart or a reload is the whole policy). Otherwise the plan goes back to pending; its
// approvals stay recorded, and the status line says which no longer count. Recover calls it
// for plans approved before a restart, execute just before a run starts.
func (e *Engine) recheck(ctx context.Context, a adapters.Adapter, p *store.Plan) (*store.Plan, judgement, bool) {
	spec, now := p.Plan.Spec, e.now()
	if now.After(p.Expires) {
		if _, err := e.st.UpdatePlanAudited(ctx, p.ID, func(p *store.Plan) ([]store.Entry, error) {
			if p.State != store.PlanApproved {
				return nil, errNotPending
			}
			p.State, p.Updated = store.PlanExpired, now
			return []store.Entry{e.entry(store.Entry{Kind: "expiry", PlanID: p.ID, Hash: p.Plan.Hash, Service: spec.Target, Env: spec.Env,
				Text: "approved, but expired before Eos could start it"})}, nil
		}); err != nil {
			e.log.Error("expiring a plan approved before the restart", "plan", p.ID, "err", err)
			return nil, judgement{}, false
		}
		e.showStatus(ctx, p.ID)
		why := "Eos stopped before it ran and it expired"
		if p.Held != nil {
			why = strings.TrimSuffix(p.Held.Reason, " is full") + " stayed full until it expired"
		}
		e.sayAnywhere(ctx, a, p.Preview, render.ExpiredApproved(p.ID, why, p.Expires, p.Text))
		return nil, judgement{}, false
	}
	j := e.judge(ctx, a, p)
	if j.code.denied() { // the policy in force now denies it (policyjudge.go)
		e.haltDenied(ctx, a, p, j.code)
		return nil, judgement{}, false
	}
	if j.verdict.Satisfied() {
		return p, j, true
	}
	if _, err := e.st.UpdatePlanAudited(ctx, p.ID, func(p *store.Plan) ([]store.Entry, error) {
		if p.State != store.PlanApproved {
			return nil, errNotPending
		}
		p.State, p.Updated, p.Held = store.PlanPending, now, nil
		return []store.Entry{e.entry(store.Entry{Kind: "refusal", PlanID: p.ID, Hash: p.Plan.Hash, Service: spec.Target, Env: spec.Env,
			Text: "approved, but under the current policy its approvals do not suffice: " + render.Progress(j.verdict)})}, nil
	}); err != nil {
		e.log.Error("returning a plan to pending under the current policy", "plan", p.ID, "err", err)
		return nil, judgement{}, false
	}
	e.showStatus(ctx, p.ID)
	e.sayAnywhere(ctx, a, p.Preview, render.NoLongerSuffices(p.ID, j.verdict, j.need(p.Requester.Name)))
	return nil, judgement{}, false
}

// catchUpWithdrawals takes back, on plans approved whose run has not started (one waiting
// for space may wait long, held.go), each approval whose ✅ is no longer on the preview: it
// was removed while Eos was down, and platforms do not deliver a removal later. A ❌ given
// while Eos was down halts the plan, as it would have had Eos heard it (stop.go judges who
// may). Where the platform cannot list reactions, or the preview is gone, the approvals stay
// as recorded.
func (e *Engine) catchUpWithdrawals(ctx context.Context, approved []*store.Plan) {
	for _, p := range approved {
		if !p.RunStarted.IsZero() || p.Preview.ID == "" {
			continue
		}
		a, ok := e.adapter(p.Preview.Platform)
		if !ok {
			continue
		}
		rr, ok := a.(adapters.ReactionReader)
		if !ok {
			continue
		}
		reactions, err := rr.Reactions(ctx, p.Preview)
		if err != nil {
			e.log.Warn("reading reactions on an approved plan", "plan", p.ID, "err", err)
			continue
		}
		for _, r := range reactions {
			if adapters.VoteOf(r.Emoji) == adapters.Reject && !r.Removed && !r.User.Bot {
				e.handleReaction(ctx, a, r)
			}
		}
		e.withdrawGone(ctx, a, p, reactions)
	}
}

// withdrawGone takes back each approval recorded on plan p (as it was read) whose person no
// longer shows an approving reaction among reactions, the preview's as the platform lists them.
// A person who still shows one keeps the approval, and its emoji become those listed
// (approvalemoji.go): one added while Eos was down and taken back later must not leave the
// approval standing on one that is gone.
func (e *Engine) withdrawGone(ctx context.Context, a adapters.Adapter, p *store.Plan, reactions []adapters.Reaction) {
	still := map[string][]string{}
	for _, r := range reactions {
		if adapters.VoteOf(r.Emoji) == adapters.Approve && !r.Removed && !slices.Contains(still[r.User.ID], r.Emoji) {
			still[r.User.ID] = append(still[r.User.ID], r.Emoji)
		}
	}
	e.showingNow(ctx, a, p, still)
	for _, v := range p.Approvals {
		if v.Platform != a.Name() || len(still[v.UserID]) > 0 {
			continue
		}
		e.log.Info("an approval was taken back while Eos was down", "plan", p.ID, "user", v.User)
		// Each approving emoji Eos heard is gone: the approval goes with the last.
		gone := slices.Clone(v.Emoji)
		if len(gone) == 0 {
			gone = []string{"+1"}
		}
		for _, emoji := range gone {
			e.handleReaction(ctx, a, adapters.Reaction{Post: p.Preview, User: adapters.User{ID: v.UserID, Name: v.User}, Emoji: emoji, Removed: true, At: e.now()})
		}
	}
}

// showingNow sets the emoji of each approval on plan p from platform a whose person shows
// approving reactions (shown: user ID → emoji) to those, when Eos kept them (Vote.Emoji); it
// writes only when one differs from those of p as it was read.
func (e *Engine) showingNow(ctx context.Context, a adapters.Adapter, p *store.Plan, shown map[string][]string) {
	stale := func(v store.Vote) bool {
		now := shown[v.UserID]
		return v.Platform == a.Name() && len(now) > 0 && len(v.Emoji) > 0 && !slices.Equal(now, v.Emoji)
	}
	if !slices.ContainsFunc(p.Approvals, stale) {
		return
	}
	_, err := e.st.UpdatePlan(ctx, p.ID, func(p *store.Plan) error {
		for i, v := range p.Approvals {
			if stale(v) {
				p.Approvals[i].Emoji = slices.Clone(shown[v.UserID])
			}
		}
		return nil
	})
	if err != nil {
		e.log.Warn("recording the approving reactions found on a preview", "plan", p.ID, "err", err)
	}
}

// catchUpReactions reads the reactions on every pending plan's preview, for platforms that
// can list them, and handles them as if they had just arrived: an approval given while Eos
// was down counts, and one taken back while it was down is taken back. Reactions are
// idempotent, so one already counted changes nothing.
func (e *Engine) catchUpReactions(ctx context.Context) error {
	// Expired plans are left to the sweeper: no need to ask the platform about them.
	now := e.now()
	pending, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool {
		return p.State == store.PlanPending && p.Preview.ID != "" && now.Before(p.Expires)
	})
	if err != nil {
		return fmt.Errorf("reading pending plans: %w", err)
	}
	for _, p := range pending {
		a, ok := e.adapter(p.Preview.Platform)
		if !ok {
			continue
		}
		rr, ok := a.(adapters.ReactionReader)
		if !ok {
			continue
		}
		reactions, err := rr.Reactions(ctx, p.Preview)
		if errors.Is(err, adapters.ErrNoSuchPost) {
			e.previewGone(ctx, a, p, err)
			continue
		}
		if err != nil {
			e.log.Warn("reading reactions on a pending plan", "plan", p.ID, "err", err)
			continue
		}
		// An approval whose ✅ was removed while Eos was down is taken back first, here and
		// now: the reactions below are handled on their conversation's turn, and one of them
		// must not complete the approvals with it.
		e.withdrawGone(ctx, a, p, reactions)
		for _, r := range reactions {
			e.HandleReaction(ctx, a, r)
		}
	}
	return nil
}

// previewGone cancels a pending plan whose preview no longer exists (deleted while Eos was
// down, or a console post of an earlier session): nobody can approve it any more. The request's
// thread is told, or the channel when the request is gone too.
func (e *Engine) previewGone(ctx context.Context, a adapters.Adapter, p *store.Plan, why error) {
	_, err := e.st.UpdatePlan(ctx, p.ID, func(p *store.Plan) error {
		if p.State != store.PlanPending {
			return errNotPending
		}
		p.State, p.Updated = store.PlanCancelled, e.now()
		return nil
	})
	if err != nil {
		return
	}
	e.log.Info("cancelled a pending plan whose preview is gone", "plan", p.ID, "why", why)
	e.audit(ctx, store.Entry{Kind: "cancel", PlanID: p.ID, Hash: p.Plan.Hash, Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env,
		Text: "preview gone: nobody could approve it"})
	spec := p.Plan.Spec
	e.sayAnywhere(ctx, a, p.Request, render.PreviewGone(p.ID, render.RequestLine(spec), p.Requester.Name))
}

// sweep expires pending plans whose time is up, until ctx ends.
func (e *Engine) sweep(ctx context.Context) {
	tick := time.NewTicker(sweepInterval)
	defer tick.Stop()
	for {
		e.ExpireDue(ctx)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// ExpireDue marks every pending plan past its expiry as expired and edits its preview to say
// so. It returns how many plans expired.
func (e *Engine) ExpireDue(ctx context.Context) int {
	now := e.now()
	due, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool { return p.State == store.PlanPending && now.After(p.Expires) })
	if err != nil {
		e.logFailure(ctx, "reading pending plans", err)
		return 0
	}
	n := 0
	for _, p := range due {
		p, err := e.st.UpdatePlan(ctx, p.ID, func(p *store.Plan) error {
			if p.State != store.PlanPending {
				return errNotPending
			}
			p.State, p.Updated = store.PlanExpired, now
			return nil
		})
		if err != nil {
			continue
		}
		n++
		e.audit(ctx, store.Entry{Kind: "expiry", PlanID: p.ID, Hash: p.Plan.Hash, Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env, Text: "expired without approval"})
		if a, ok := e.adapter(p.Preview.Platform); ok && !e.showStatus(ctx, p.ID) {
			e.say(ctx, a, p.Preview, render.Expired(p.ID, p.Expires))
		}
	}
	return n
}
