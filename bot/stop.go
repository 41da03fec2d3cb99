package bot

import (
	"context"
	"sync"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// A run in flight can be stopped with `cancel ID` by its requester or an approver. The stop
// takes effect at the next safe point, before the next layer with changes (the executor's
// StopWhen): the layer applying now finishes, no later layer starts, and nothing is rolled
// back, since what finished is what was approved. The run ends as stopped, its declared
// state unchanged, and the result says who stopped it, after which layer and what did not
// start.

// runStop is the stop switch of one run in flight.
type runStop struct {
	ch   chan struct{}
	once sync.Once
	mu   sync.Mutex
	by   string // who asked first; set before ch closes
	// kick wakes a run that waits for space before it starts (held.go) to look at its plan
	// again now: a withdrawal may have ended the wait.
	kick chan struct{}
}

// poke wakes the waiting run, if it waits; it never blocks.
func (s *runStop) poke() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// ask records that by wants the run stopped; it reports false, with the first asker, when
// someone asked already.
func (s *runStop) ask(by string) (bool, string) {
	first := false
	s.once.Do(func() {
		s.mu.Lock()
		s.by = by
		s.mu.Unlock()
		close(s.ch)
		first = true
	})
	return first, s.asker()
}

// asker is who asked for the stop, or "" when nobody did.
func (s *runStop) asker() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.by
}

// stoppable makes run id's stop switch, findable by cancel until done is called.
func (e *Engine) stoppable(id string) (s *runStop, done func()) {
	s = &runStop{ch: make(chan struct{}), kick: make(chan struct{}, 1)}
	e.runs.mu.Lock()
	e.runs.stops[id] = s
	e.runs.mu.Unlock()
	return s, func() {
		e.runs.mu.Lock()
		defer e.runs.mu.Unlock()
		if e.runs.stops[id] == s {
			delete(e.runs.stops, id)
		}
	}
}

func (e *Engine) stopOf(id string) (*runStop, bool) {
	e.runs.mu.Lock()
	defer e.runs.mu.Unlock()
	s, ok := e.runs.stops[id]
	return s, ok
}

// halt answers a cancel of approved plan p by who (`cancel ID`, or a ❌ on its preview):
// before its run starts the plan is cancelled in the store, so the run never starts (StartRun
// refuses a plan no longer approved, and execute checks the stop switch before it); once the
// run has started it stops at the next safe point. Only the requester or an approver may. It
// reports false when p has neither a run about to start nor one in flight in this process, and
// the caller answers as for any plan.
func (e *Engine) halt(ctx context.Context, a adapters.Adapter, where adapters.PostRef, p *store.Plan, by adapters.User, who Person) bool {
	spec := p.Plan.Spec
	rules := e.planRules(p)
	entry := store.Entry{User: by.Name, UserID: by.ID, Platform: a.Name(), PlanID: p.ID, Hash: p.Plan.Hash, Service: spec.Target, Env: spec.Env}
	s, inFlight := e.stopOf(p.ID)
	if !MayReject(rules, who, who.Is(p.Request.Platform, p.Requester.ID)) {
		if !inFlight && (p.State != store.PlanApproved || !p.RunStarted.IsZero()) {
			return false // nothing to stop: the caller answers as for any plan
		}
		msg := render.CantStop(by.Name, p.ID, p.Requester.Name, render.RulesWho(rules))
		entry.Kind, entry.Text = "refusal", msg
		e.audit(ctx, entry)
		e.say(ctx, a, where, render.Reply(msg))
		return true
	}
	now := e.now()
	_, err := e.st.UpdatePlan(ctx, p.ID, func(sp *store.Plan) error {
		if sp.State != store.PlanApproved || !sp.RunStarted.IsZero() {
			return errNotPending
		}
		sp.State, sp.Updated = store.PlanCancelled, now
		sp.Cancellation = &store.Cancellation{By: &store.Vote{User: by.Name, UserID: by.ID, Platform: a.Name(), At: now}, At: now}
		return nil
	})
	if err == nil {
		if inFlight {
			s.ask(by.Name)
		}
		entry.Kind, entry.Text = "cancel", "cancelled after approval, before its run started: nothing applied"
		e.audit(ctx, entry)
		e.log.Info("approved plan cancelled before its run started", "plan", p.ID, "user", by.Name)
		e.say(ctx, a, where, render.CancelledBeforeRun(p.ID, by.Name))
		e.showStatus(ctx, p.ID)
		return true
	}
	if !inFlight {
		return false
	}
	first, asker := s.ask(by.Name)
	if !first {
		e.say(ctx, a, where, render.StoppingAlready(p.ID, asker))
		return true
	}
	entry.Kind, entry.Text = "stop", "stop asked for: the run stops before its next layer; nothing is rolled back"
	e.audit(ctx, entry)
	e.log.Info("run stop asked for", "run", p.ID, "user", by.Name)
	e.say(ctx, a, where, render.Stopping(p.ID))
	return true
}

// unlock frees the locks p's run took before it started, when it does not start after all.
func (e *Engine) unlock(ctx context.Context, p *store.Plan) {
	// Released even when ctx was cancelled: a lock left behind would keep the service busy.
	if err := e.st.Unlock(context.WithoutCancel(ctx), p.Keys(), p.ID); err != nil {
		e.log.Error("releasing the locks of a run that did not start", "plan", p.ID, "err", err)
	}
}
