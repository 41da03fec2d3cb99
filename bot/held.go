package bot

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// An approval whose run cannot start because the disk a run writes its working files to is
// full is kept, not dropped: the plan stays approved, the store records why it waits
// (store.Plan.Held, so a restart keeps it too), the thread says so once, and Eos starts the
// run by itself when the disk has space again, checking with a backoff of at most
// heldCheckMax. The run then goes the way every run goes: planned again (a plan that changed
// is superseded), judged by the policy in force then, and started only from a plan the store
// still has approved. A removed ✅ that leaves too few approvals, a ❌, a cancel or the plan's
// expiry ends the wait, and nothing runs.
//
// A store that cannot write is not a full work directory: nothing can be kept there, so the
// answer says the approval is not kept (fail closed), as for every other cause.

// notStarted explains why an approved plan could not start. A full work directory holds the
// approval (held.go) and it reports true; any other cause puts the plan back to pending, so a
// later approval can start it. When Eos is stopping, it leaves the plan approved: the next
// process starts it (Recover).
func (e *Engine) notStarted(ctx context.Context, a adapters.Adapter, p *store.Plan, err error) (held bool) {
	if errors.Is(err, store.ErrAlreadyRun) {
		return false // a redelivered approval: the run exists already
	}
	if ctx.Err() != nil {
		e.log.Warn("an approved plan did not start: Eos is stopping; the next start takes it up", "plan", p.ID, "err", err)
		return false
	}
	if dir, ok := e.holdable(err); ok {
		herr := e.hold(ctx, a, p, dir)
		if herr == nil {
			return true
		}
		if errors.Is(herr, errNotPending) {
			return false // withdrawn or cancelled meanwhile, which said so
		}
		e.log.Error("recording that an approved plan waits for space", "plan", p.ID, "err", herr)
		err = unkept{err, herr}
	}
	_, uerr := e.st.UpdatePlan(ctx, p.ID, func(p *store.Plan) error {
		if p.State != store.PlanApproved || !p.RunStarted.IsZero() {
			return errNotPending // a cancel reached it first
		}
		p.State, p.Approvals, p.Held = store.PlanPending, nil, nil
		return nil
	})
	var locked *store.LockedError
	msg := render.NotStarted(p.ID, e.startAdvice(err))
	switch {
	case uerr != nil && !errors.Is(uerr, errNotPending):
		// The store keeps the plan approved although nothing started: say so, since the next
		// start of Eos takes it up (Recover), rather than "not kept".
		e.log.Error("returning plan to pending", "plan", p.ID, "err", uerr)
		msg = render.NotStarted(p.ID, e.untakenAdvice(err, uerr, p.ID))
	case errors.As(err, &locked):
		msg = render.StartBusy(p.ID, locked.Lock.Key, locked.Lock.Holder)
	}
	e.showStatus(ctx, p.ID)
	e.say(ctx, a, p.Preview, msg)
	return false
}

// untakenAdvice says why approved plan id could not start (err) when Eos could not put it
// back to pending either (uerr): the store may still hold it approved, and the next start of
// Eos would plan it again, judge it and run it, so the approver learns how to stop that.
func (e *Engine) untakenAdvice(err, uerr error, id string) string {
	cause := err.Error()
	var se storeError
	var uk unkept
	switch {
	case errors.As(err, &uk):
		cause = e.fullWhere(uk.cause) + " is full (no space left on device), and Eos could not record that it keeps the approval"
	case errors.As(err, &se):
		cause = fmt.Sprintf("Eos could not write to its store (%v)", se.error)
	}
	back := ""
	if se.error == nil || uerr.Error() != se.error.Error() {
		back = fmt.Sprintf(" (store: %v)", uerr)
	}
	return fmt.Sprintf("could not start: %s. Nothing changed, but Eos could not take your approval back either%s, so its store may still hold this plan approved: when Eos starts again it plans it again, judges it by the policy in force then, and runs it. If it should not run, ❌ it or `@eos cancel %s` once the store can be written again (/healthz says)",
		cause, back, id)
}

// heldCheckMax is the longest wait between two checks of a held approval's cause; the thread
// says it.
const heldCheckMax = 30 * time.Second

// heldBackoff spaces those checks: soon after the hold, then every heldCheckMax.
var heldBackoff = executor.Backoff{Min: time.Second, Max: heldCheckMax}

// storeError marks an error of the store itself (a lock or a run it could not record), which
// holding the approval cannot get round.
type storeError struct{ error }

func (e storeError) Unwrap() error { return e.error }

// holdable reports whether err, which kept an approved plan from starting, is a full disk
// where a run writes its working files (not the store's), with the directory when Eos can
// tell which.
func (e *Engine) holdable(err error) (dir string, ok bool) {
	if !diskFull(err) || errors.As(err, new(storeError)) {
		return "", false
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return e.workDirOf(pe.Path), true
	}
	d, _ := e.unwritableWorkDir()
	return d, true
}

// hold records that approved plan p waits for space on dir before its run starts, and says so
// the first time (a later attempt that finds the disk still full, or the process after a
// restart, says nothing new). It fails with errNotPending when the plan no longer stands (a
// withdrawal, a ❌ or a cancel reached it first, and said so), and with the store's error
// when it cannot record the hold.
func (e *Engine) hold(ctx context.Context, a adapters.Adapter, p *store.Plan, dir string) error {
	where := "the disk Eos writes its working files to"
	if dir != "" {
		where = "the disk holding " + dir
	}
	spec, now, first := p.Plan.Spec, e.now(), false
	held, err := e.st.UpdatePlanAudited(ctx, p.ID, func(sp *store.Plan) ([]store.Entry, error) {
		first = false // a retried transaction starts over
		if sp.State != store.PlanApproved || !sp.RunStarted.IsZero() {
			return nil, errNotPending
		}
		if sp.Held != nil {
			return nil, nil
		}
		first = true
		sp.Held = &store.Hold{Reason: where + " is full", Dir: dir, Since: now}
		return []store.Entry{e.entry(store.Entry{Kind: "held", PlanID: sp.ID, Hash: sp.Plan.Hash, Service: spec.Target, Env: spec.Env,
			Text: "approved, but " + where + " is full: the approval is kept and the run starts when there is space"})}, nil
	})
	if err != nil {
		return err
	}
	*p = *held
	if !first {
		e.log.Info("the disk is still full: the approved plan keeps waiting", "plan", p.ID, "dir", dir)
		return nil
	}
	e.log.Warn("approved plan held: the disk is full", "plan", p.ID, "dir", dir)
	e.showStatus(ctx, p.ID)
	e.sayAnywhere(ctx, a, p.Preview, render.HeldForSpace(p.ID, where, heldCheckMax, p.Expires))
	return nil
}

// awaitSpace waits, with backoff, until held plan id may try to start again: its work
// directories can be written again and the store still has it approved and held. It returns
// the plan as the store has it then, or nil when the wait ends: the plan no longer stands,
// it expired (recheck says so), it was cancelled, or Eos stops (the next process resumes it).
// A withdrawal pokes stop, so the wait ends at once rather than at the next check.
func (e *Engine) awaitSpace(a adapters.Adapter, id string, stop *runStop) *store.Plan {
	log := e.log.With("plan", id)
	for n := 0; ; n++ {
		t := time.NewTimer(heldBackoff.Delay(n))
		select {
		case <-e.runs.ctx.Done():
			t.Stop()
			log.Info("stopping with an approved plan waiting for space: the next start resumes it")
			return nil
		case <-stop.ch:
			t.Stop()
			log.Info("an approved plan stopped waiting for space: it was cancelled") // halt said so
			return nil
		case <-stop.kick:
			t.Stop()
		case <-t.C:
		}
		p, err := e.st.Plan(e.runs.ctx, id)
		if err != nil {
			log.Error("reading a held plan", "err", err)
			continue // nothing starts without the store: try again later
		}
		if p.State != store.PlanApproved || !p.RunStarted.IsZero() || p.Held == nil {
			log.Info("an approved plan stopped waiting for space: it no longer stands", "state", p.State)
			return nil
		}
		if e.now().After(p.Expires) {
			e.recheck(e.runs.ctx, a, p) // expires it, and says so
			return nil
		}
		if d, err := e.unwritableWorkDir(); err != nil {
			log.Debug("a held plan's work directory is still not writable", "dir", d, "err", err)
			continue
		}
		log.Info("space again: starting the approved plan that waited for it")
		return p
	}
}
