package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/eosbot/eos/adapters"
)

// The engine never makes an adapter wait for planning, drift checks or applies: HandleMessage
// and HandleReaction hand each event to the dispatcher and return. The dispatcher runs the
// events of one conversation one after the other, in the order they came, and the events of
// different conversations side by side, at most Config.MaxConcurrent at once. Events beyond
// that wait in their conversation's queue, at most Config.MaxQueued accepted and unfinished
// events in all; when that many are waiting, an adapter waits up to queueWait for room, and
// then the event is dropped: the log and eos_events_dropped_total say so, and its author is
// asked in the thread to say it again (one such notice at a time; under more load than that
// only the log speaks). Nothing is dropped silently, and no adapter waits longer than
// queueWait.

const (
	// defaultMaxConcurrent is how many events are handled at once when Config says nothing.
	defaultMaxConcurrent = 16
	// defaultMaxQueued is how many events may be accepted and unfinished when Config says
	// nothing.
	defaultMaxQueued = 512
	// queueWait is the longest an adapter waits for room in a full queue.
	queueWait = 5 * time.Second
	// busyNoticeTimeout bounds posting that an event was dropped.
	busyNoticeTimeout = 30 * time.Second
)

// convKey names a conversation: a request and everything in its thread, including the
// reactions on the preview posted there. It is the platform and the thread's root post; the
// channel is left out because on Discord a thread is a channel of its own, so a reaction in
// the thread names another channel than the request it answers. Two roots with one id in
// different channels (possible only on Slack) merely take turns.
type convKey struct{ platform, root string }

func keyOf(p adapters.PostRef) convKey { return convKey{platform: p.Platform, root: p.Root()} }

// dispatcher runs handlers on their own goroutines, in order per conversation, bounded in
// all. It is safe for concurrent use.
type dispatcher struct {
	slots   chan struct{} // accepted events not finished: queued or running
	running chan struct{} // handlers running now
	notices chan struct{} // busy notices being posted; one at a time, the rest only logged
	wait    time.Duration
	dropped *prometheus.CounterVec

	mu    sync.Mutex
	convs map[convKey][]func() // each conversation's waiting events; present while drained
	busy  flight               // conversations being drained, and busy notices
}

func newDispatcher(maxConcurrent, maxQueued int, reg *prometheus.Registry) *dispatcher {
	d := &dispatcher{
		slots:   make(chan struct{}, maxQueued),
		running: make(chan struct{}, maxConcurrent),
		notices: make(chan struct{}, 1),
		wait:    queueWait,
		convs:   map[convKey][]func(){},
		dropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "eos_events_dropped_total",
			Help: "Messages and reactions dropped because the queue stayed full, by platform and kind."}, []string{"platform", "kind"}),
	}
	reg.MustRegister(d.dropped)
	return d
}

// submit queues fn behind the conversation's earlier events. It reports false, having queued
// nothing, when the queue stayed full for d.wait or ctx ended first.
func (d *dispatcher) submit(ctx context.Context, key convKey, fn func()) bool {
	select {
	case d.slots <- struct{}{}:
	default:
		t := time.NewTimer(d.wait)
		defer t.Stop()
		select {
		case d.slots <- struct{}{}:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	q, draining := d.convs[key]
	d.convs[key] = append(q, fn)
	if !draining {
		d.busy.Add(1)
		go d.drain(key)
	}
	return true
}

// drain runs key's events until its queue is empty.
func (d *dispatcher) drain(key convKey) {
	defer d.busy.Done()
	for {
		d.mu.Lock()
		q := d.convs[key]
		if len(q) == 0 {
			delete(d.convs, key)
			d.mu.Unlock()
			return
		}
		fn := q[0]
		q[0] = nil
		d.convs[key] = q[1:]
		d.mu.Unlock()

		d.running <- struct{}{}
		fn()
		<-d.running
		<-d.slots
	}
}

// notice runs fn (telling someone their event was dropped) in the background, unless another
// notice is being posted already: under that much load, the log has to do.
func (d *dispatcher) notice(fn func()) bool {
	select {
	case d.notices <- struct{}{}:
	default:
		return false
	}
	d.busy.Add(1)
	go func() {
		defer d.busy.Done()
		defer func() { <-d.notices }()
		fn()
	}()
	return true
}

// queued is how many events are accepted and not finished.
func (d *dispatcher) queued() int { return len(d.slots) }

// flight counts work in flight, like a sync.WaitGroup, but may be waited on with a context
// and counted up again while someone waits. The zero value is idle.
type flight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to zero; nil while n is zero
}

// Add changes the count by delta.
func (f *flight) Add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 && delta > 0 {
		f.idle = make(chan struct{})
	}
	f.n += delta
	switch {
	case f.n < 0:
		panic("bot: flight count below zero")
	case f.n == 0 && f.idle != nil:
		close(f.idle)
		f.idle = nil
	}
}

// Done is Add(-1).
func (f *flight) Done() { f.Add(-1) }

// Wait returns when the count is zero.
func (f *flight) Wait() { _ = f.waitCtx(context.Background()) }

// waitCtx returns nil when the count is zero, or ctx's error when ctx ends first.
func (f *flight) waitCtx(ctx context.Context) error {
	f.mu.Lock()
	ch := f.idle
	f.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *flight) zero() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n == 0
}

// HandleMessage answers a message addressed to Eos. It returns as soon as the message is
// queued behind its conversation's earlier events; the answer comes from another goroutine.
func (e *Engine) HandleMessage(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	if m.Author.Bot {
		return
	}
	e.dispatch(ctx, a, m.Post, "message", func(ctx context.Context) { e.handleMessage(ctx, a, m) }, func(ctx context.Context, why string) {
		e.say(ctx, a, m.Post, reply(fmt.Sprintf("@%s, Eos is too busy to take this now (%s): nothing was done. Say it again in a minute.", m.Author.Name, why)))
	})
}

// HandleReaction applies the approval policy to a reaction on a preview post (or triages the
// drift of a digest's service: 🔧, 📥, 🔕). Like HandleMessage it only queues the reaction, in the
// conversation of the post it is on.
func (e *Engine) HandleReaction(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	if r.User.Bot || (adapters.VoteOf(r.Emoji) == adapters.NoVote && !isTriage(r.Emoji)) {
		return // an emoji that means nothing to Eos takes no place in the queue
	}
	e.dispatch(ctx, a, r.Post, "reaction", func(ctx context.Context) { e.handleReaction(ctx, a, r) }, func(ctx context.Context, why string) {
		e.say(ctx, a, r.Post, reply(fmt.Sprintf("@%s, Eos is too busy to take your :%s: now (%s): it was not counted. Remove it and react again in a minute.",
			r.User.Name, r.Emoji, why)))
	})
}

// dispatch queues handle in post's conversation; busy tells the author when it cannot be.
// Handlers run with ctx's values but not its cancellation: an adapter that stops does not
// cut a handler short; Run's shutdown does, after ShutdownGrace.
func (e *Engine) dispatch(ctx context.Context, a adapters.Adapter, post adapters.PostRef, kind string, handle func(context.Context), busy func(context.Context, string)) {
	detached := context.WithoutCancel(ctx)
	run := func() {
		hctx, cancel := context.WithCancel(detached)
		defer cancel()
		stop := context.AfterFunc(e.runCtx, cancel)
		defer stop()
		handle(hctx)
	}
	if e.disp.submit(ctx, keyOf(post), run) {
		return
	}
	why := fmt.Sprintf("%d requests and reactions waiting", e.disp.queued())
	e.disp.dropped.WithLabelValues(a.Name(), kind).Inc()
	told := e.disp.notice(func() {
		nctx, cancel := context.WithTimeout(detached, busyNoticeTimeout)
		defer cancel()
		busy(nctx, why)
	})
	e.log.Warn("queue full: event dropped", "platform", a.Name(), "channel", post.Channel, "kind", kind, "why", why, "told", told)
}
