package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/runwatch"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// start runs an approved plan in the background; Wait and Run's shutdown wait for it. Its
// stop switch exists before start returns, so a cancel from the moment of approval on finds
// the run, whether it is still planning again or applying.
func (e *Engine) start(a adapters.Adapter, p *store.Plan) {
	if !e.mayAct("run of plan "+p.ID, a, p.Preview) {
		return
	}
	stop, stoppable := e.stoppable(p.ID)
	e.runs.flight.Add(1)
	go func() {
		defer stoppable()
		if !e.execute(e.runs.ctx, a, p, stop) {
			e.runs.flight.Done()
			return
		}
		// Held (held.go): it waits for space as a follower, which Wait does not wait for,
		// and counts as a run again only while it tries to start.
		e.runs.follow.Add(1)
		e.runs.flight.Done()
		defer e.runs.follow.Done()
		for held := true; held; {
			if p = e.awaitSpace(a, p.ID, stop); p == nil {
				return
			}
			e.runs.flight.Add(1)
			held = e.execute(e.runs.ctx, a, p, stop)
			e.runs.flight.Done()
		}
	}()
}

// execute applies an approved plan: take the lock and create the run in one transaction,
// post the progress post, apply layer by layer editing it, record the outcome and the
// declared state, release the lock. It reports true when the run could not start because
// a work directory's disk is full and the approval is held (held.go): start then waits for
// space and calls it again.
func (e *Engine) execute(ctx context.Context, a adapters.Adapter, p *store.Plan, stop *runStop) (held bool) {
	spec := p.Plan.Spec
	// A full work directory is found before planning again, which would only fail on it.
	if _, err := e.unwritableWorkDir(); err != nil && diskFull(err) {
		return e.notStarted(ctx, a, p, err)
	}
	ctx = executor.WithLog(ctx, e.log.With("conv", convID(p.Request), "plan", p.ID))
	run := &store.Run{
		ID: p.ID, State: store.RunRunning, Verb: spec.Verb, Target: spec.Target, Env: spec.Env, Hash: p.Plan.Hash,
		Request: p.Text, Requester: p.Requester.Name, Approvers: voters(p.Approvals), Started: e.now(), Keys: p.Keys(),
	}
	fresh, ok, held := e.replan(ctx, a, p)
	if !ok {
		return held
	}
	p.Plan = fresh
	// The policy in force now judges the plan once more: one changed since the approval
	// (a reload) may no longer let it run, and the policy as code judges it afresh.
	e.judgeCode(ctx, p, true)
	_, j, ok := e.recheck(ctx, a, p)
	if !ok {
		e.unlock(ctx, p)
		return false
	}
	run.Approvers, p.Approvals = voters(j.verdict.CountingVotes(p.Approvals)), j.verdict.CountingVotes(p.Approvals)
	if stop.asker() != "" {
		e.unlock(ctx, p) // cancelled before it started: halt (stop.go) said so
		return false
	}
	started := e.entry(store.Entry{Kind: "run", PlanID: p.ID, Hash: p.Plan.Hash, Service: spec.Target, Env: spec.Env, Platform: a.Name(),
		Text: "run started, approved by " + render.Mentions(run.Approvers) + " (" + voterIDs(p.Approvals) + ")"})
	if err := e.st.StartRun(ctx, run, started); errors.Is(err, store.ErrNotApproved) {
		// A cancel, a rejection or a withdrawal reached the plan first and said so.
		e.unlock(ctx, p)
		e.log.Info("run not started: the plan is no longer approved", "plan", p.ID, "err", err)
		return false
	} else if err != nil {
		return e.notStarted(ctx, a, p, storeError{err})
	}
	if p.Held != nil {
		e.showStatus(ctx, p.ID) // no longer waiting for space: running
	}
	log := executor.Log(ctx, e.log).With("service", spec.Target, "env", spec.Env)
	log.Info("run started", "approvers", run.Approvers)
	e.runs.watch.Begin(run.ID)
	defer e.runs.watch.Publish(run.ID, runwatch.RunUpdate{Finished: true}) // after the outcome is stored
	output := newOutputLog(e, run.ID)

	t := newTracker(e, a, run, p.Plan)
	t.post(ctx, p.Preview)
	res := e.cfg.Runner.Apply(ctx, p.Plan, e.previousSpec(ctx, spec), executor.Observe(t.report, output.add), executor.StopWhen(stop.ch))
	t.stop()
	output.close(context.WithoutCancel(ctx))

	// An adopt's spec is declared as an ordinary one: what it adopted is now simply declared,
	// and the next plan of it (a reconcile, an update) changes the real world again.
	decl := spec
	decl.Adopt, decl.AdoptedValues = false, nil
	// The declared state is the state, not the request that made it: what was asked, the
	// values it changed and the run a rollback returned to belong to that plan only.
	decl.Asked, decl.Changes, decl.ReturnsTo = nil, nil, ""
	state, declared := store.RunDone, &decl
	if res.Failed {
		state, declared = store.RunFailed, nil
		for _, l := range res.Layers {
			if l.Status == executor.ResultCancelled {
				state = store.RunInterrupted
			}
		}
		if res.Stopped {
			state = store.RunStopped
		}
	}
	layers := res.Layers
	if res.SecretsError != "" {
		layers = append([]executor.LayerResult{{Layer: executor.Vault, Status: executor.ResultFailed, Error: res.SecretsError}}, layers...)
	}
	if n := len(res.Purged); n > 0 {
		layers = append(layers, executor.LayerResult{Layer: executor.Vault, Status: executor.ResultOK, Summary: fmt.Sprintf("deleted %d secret%s", n, render.Plural(n))})
	}
	keep := context.WithoutCancel(ctx) // what the run did is recorded even while Eos stops
	final, err := e.st.FinishRun(keep, run.ID, state, layers, e.now(), declared)
	if err != nil {
		log.Error("recording run outcome", "err", err)
		return false
	}
	log.Info("run finished", "state", state, "elapsed", res.Elapsed)
	e.m.runs.WithLabelValues(string(state)).Inc()
	for _, l := range res.Layers {
		if l.Status == executor.ResultOK || l.Status == executor.ResultFailed {
			e.m.layerTime.WithLabelValues(string(l.Layer), string(l.Status)).Observe(l.Elapsed.Seconds())
		}
	}
	doc := render.Result(final)
	switch by := stop.asker(); {
	case res.Stopped:
		doc = render.Stopped(final, by)
	case by != "":
		doc = render.UnstoppedNote(doc, by)
	}
	e.audit(keep, store.Entry{Kind: "result", PlanID: p.ID, Hash: p.Plan.Hash, Service: spec.Target, Env: spec.Env, Text: doc.Plain()})
	t.finish(keep, e.withPageLink(doc, "Run details", "runs", run.ID))
	e.showStatus(keep, p.ID)
	logFailures(log, final)              // output.go
	e.watchOutcome(keep, a, final, spec) // unknown.go
	return false
}

// replan plans the approved spec again just before applying. The approval holds only for the
// exact plan it was given on: when the declared state it was compiled against or the fresh
// plan's hash differs, it is superseded and its request answered again (supersede.go). held
// is true when a work directory's disk is full and the approval is held (held.go).
func (e *Engine) replan(ctx context.Context, a adapters.Adapter, p *store.Plan) (_ executor.Plan, ok, held bool) {
	unlock, err := e.st.TryLock(ctx, p.Keys(), p.ID, e.now())
	if err != nil {
		if !errors.As(err, new(*store.LockedError)) {
			err = storeError{err}
		}
		return executor.Plan{}, false, e.notStarted(ctx, a, p, err)
	}
	if changed, err := e.basisChanged(ctx, p); err != nil || len(changed) > 0 { // supersede.go
		unlock()
		if err != nil {
			return executor.Plan{}, false, e.notStarted(ctx, a, p, storeError{err})
		}
		e.supersede(ctx, a, p, "", "another run declared a service of the plan since it was compiled", changed...)
		return executor.Plan{}, false, false
	}
	pctx, cancel := context.WithTimeout(ctx, planTimeout)
	defer cancel()
	fresh, err := e.cfg.Runner.Plan(pctx, p.Plan.Spec)
	if err == nil && fresh.Hash == p.Plan.Hash {
		return fresh, true, false // the lock stays: StartRun takes it over for the same holder
	}
	unlock()
	if err != nil {
		return executor.Plan{}, false, e.notStarted(ctx, a, p, fmt.Errorf("planning again before applying: %w", err))
	}
	e.supersede(ctx, a, p, fresh.Hash, "plan changed between approval and apply") // supersede.go
	return executor.Plan{}, false, false
}

// voterIDs names the approvers by platform and ID, for the audit log: "mattermost:u1, …".
func voterIDs(vs []store.Vote) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Platform + ":" + v.UserID
	}
	return strings.Join(out, ", ")
}

func voters(vs []store.Vote) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.User
	}
	return out
}

// previousSpec is the declared state of the units spec touches, for rollback; nil when none
// of them was deployed before.
func (e *Engine) previousSpec(ctx context.Context, spec executor.Spec) *executor.Spec {
	prev := executor.Spec{Verb: spec.Verb, Target: spec.Target, Env: spec.Env}
	for _, u := range spec.Units {
		d, err := e.st.Declared(ctx, u.Key(spec.Env))
		if err == nil && !d.Destroyed && len(d.Spec.Units) == 1 {
			prev.Units = append(prev.Units, d.Spec.Units[0])
		}
	}
	if len(prev.Units) == 0 {
		return nil
	}
	return &prev
}

// tracker keeps the run's progress post up to date: events change its state, and a ticker
// edits the post at most once per ProgressInterval.
type tracker struct {
	e   *Engine
	a   adapters.Adapter
	run *store.Run

	mu     sync.Mutex
	layers []render.LayerState
	dirty  bool
	ref    adapters.PostRef
	done   chan struct{}
	wg     sync.WaitGroup
}

func newTracker(e *Engine, a adapters.Adapter, run *store.Run, plan executor.Plan) *tracker {
	return &tracker{e: e, a: a, run: run, done: make(chan struct{}), layers: progressLayers(plan)}
}

// progressLayers are the progress post's layers before the run starts, in the plan's (the
// run's) order: waiting, or skipped with the word for why.
func progressLayers(plan executor.Plan) []render.LayerState {
	var out []render.LayerState
	for _, lp := range plan.Layers {
		ls := render.LayerState{Name: lp.Layer, Icon: render.IconWaiting}
		if lp.Status != executor.PlanChanges {
			ls.Icon, ls.Text = render.IconSkipped, render.Skipped(lp)
		}
		out = append(out, ls)
	}
	return out
}

func (t *tracker) doc() adapters.Doc {
	return t.e.runLinked(render.ProgressDoc(t.run.ID, t.run.Approvers, t.layers), t.run.ID)
}

// post creates the progress post in the preview's thread and starts the editing loop.
func (t *tracker) post(ctx context.Context, preview adapters.PostRef) {
	t.mu.Lock()
	doc := t.doc()
	t.mu.Unlock()
	t.ref = t.e.sayAnywhere(ctx, t.a, preview, doc)
	if _, err := t.e.st.UpdateRun(ctx, t.run.ID, func(r *store.Run) error { r.Progress = t.ref; return nil }); err != nil {
		t.e.log.Error("recording progress post", "run", t.run.ID, "err", err)
	}
	if _, ok := t.a.(adapters.Editor); !ok || t.ref.ID == "" {
		return // no edits: the result comes as a new post
	}
	t.wg.Add(1)
	go t.loop(ctx)
}

func (t *tracker) loop(ctx context.Context) {
	defer t.wg.Done()
	tick := time.NewTicker(t.e.cfg.ProgressInterval)
	defer tick.Stop()
	for {
		select {
		case <-t.done:
			return
		case <-ctx.Done():
			return
		case <-tick.C:
			t.mu.Lock()
			dirty, doc := t.dirty, t.doc()
			t.dirty = false
			t.mu.Unlock()
			if dirty {
				t.edit(ctx, doc)
			}
		}
	}
}

// report is the executor's progress callback. When a layer starts, how far the run got is
// recorded in the store too (even while Eos stops): if this process dies, the one that takes
// over says what was done.
func (t *tracker) report(ev executor.Event) {
	t.e.runs.watch.Publish(t.run.ID, runwatch.RunUpdate{Event: ev, Layer: ev.Layer})
	if reached := t.advance(ev); reached != nil {
		if _, err := t.e.st.UpdateRun(context.WithoutCancel(t.e.runs.ctx), t.run.ID, func(r *store.Run) error { r.Layers = reached; return nil }); err != nil {
			t.e.log.Warn("recording how far the run got", "run", t.run.ID, "err", err)
		}
	}
}

// advance applies ev to the progress post; it returns the layers' states when a layer just
// started, nil otherwise.
func (t *tracker) advance(ev executor.Event) []executor.LayerResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	if ev.Rollback {
		for i := range t.layers {
			if l := &t.layers[i]; l.Name == ev.Layer {
				if l.Icon, l.Note = render.IconRollingBack, render.WaitingNote(ev); l.Note == "" {
					l.Done, l.Total, l.Current = ev.Done, ev.Total, ev.Resource
				}
			}
		}
		t.dirty = true
		return nil
	}
	started := false
	for i := range t.layers {
		l := &t.layers[i]
		if l.Name == ev.Layer {
			started = l.Icon != render.IconRunning
			l.Icon = render.IconRunning
			if note := render.WaitingNote(ev); note != "" {
				l.Note = note // a wait, not a step: the count and the step stay as they were
				if ev.Total > 0 {
					l.Done, l.Total = ev.Done, ev.Total
				}
				break
			}
			l.Done, l.Total, l.Current, l.Note = ev.Done, ev.Total, ev.Resource, ""
			break
		}
		if l.Icon == render.IconRunning {
			l.Icon = render.IconOK // a later layer started, so this one finished
		}
	}
	t.dirty = true
	if !started {
		return nil
	}
	reached := make([]executor.LayerResult, 0, len(t.layers))
	for _, l := range t.layers {
		status := executor.ResultNotStarted
		switch l.Icon {
		case render.IconOK:
			status = executor.ResultOK
		case render.IconRunning:
			status = executor.ResultRunning
		case render.IconSkipped:
			status = executor.ResultSkipped
		}
		reached = append(reached, executor.LayerResult{Layer: l.Name, Status: status, Done: l.Done, Total: l.Total})
	}
	return reached
}

func (t *tracker) stop() {
	close(t.done)
	t.wg.Wait()
}

// finish shows the run's outcome: an edit of the progress post, or a new post where the
// platform cannot edit.
func (t *tracker) finish(ctx context.Context, doc adapters.Doc) {
	if _, ok := t.a.(adapters.Editor); ok && t.ref.ID != "" {
		t.edit(ctx, doc)
		return
	}
	t.e.say(ctx, t.a, t.ref, doc)
}

func (t *tracker) edit(ctx context.Context, doc adapters.Doc) {
	if err := t.e.leading(); err != nil {
		t.e.log.Warn("not editing progress post: this Eos does not lead", "run", t.run.ID, "err", err)
		return
	}
	if err := t.a.(adapters.Editor).Edit(ctx, t.ref, doc); err != nil {
		t.e.log.Warn("editing progress post", "run", t.run.ID, "err", err)
	}
}
