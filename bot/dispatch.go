package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/queue"
	"github.com/eosbot/eos/bot/render"
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
	// A handler mostly waits: for a layer's plan, for the store's commit. What costs a core
	// or memory is bounded where it is spent (terraform commands, Salt dry runs), so this
	// bound is about fairness, not load; at 16 a burst of 500 requests queued behind the
	// store's commits (docs/PERFORMANCE.md, row 2b).
	defaultMaxConcurrent = 64
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

// newDispatcher is the queue (bot/queue) that runs the events of each conversation in order.
func newDispatcher(maxConcurrent, maxQueued int) *queue.Queue[convKey] {
	return queue.New[convKey](maxConcurrent, maxQueued, queueWait)
}

// HandleMessage answers a message addressed to Eos. It returns as soon as the message is
// queued behind its conversation's earlier events; the answer comes from another goroutine.
func (e *Engine) HandleMessage(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	if m.Author.Bot {
		return
	}
	e.dispatch(ctx, a, m.Post, "message", func(ctx context.Context) { e.handleMessage(ctx, a, m) }, func(ctx context.Context, why string) {
		e.say(ctx, a, m.Post, render.TooBusyMessage(m.Author.Name, why))
	})
}

// dispatch queues handle in post's conversation; busy tells the author when it cannot be.
// Handlers run with ctx's values but not its cancellation: an adapter that stops does not
// cut a handler short; Run's shutdown does, after ShutdownGrace.
func (e *Engine) dispatch(ctx context.Context, a adapters.Adapter, post adapters.PostRef, kind string, handle func(context.Context), busy func(context.Context, string)) {
	detached := context.WithoutCancel(ctx)
	run := func() {
		growStack() // once, before the handler deepens the stack (stack.go)
		hctx, cancel := context.WithCancel(detached)
		defer cancel()
		stop := context.AfterFunc(e.runs.ctx, cancel)
		defer stop()
		handle(hctx)
	}
	if e.disp.Submit(ctx, keyOf(post), run) {
		return
	}
	why := fmt.Sprintf("%d requests and reactions waiting", e.disp.Queued())
	e.m.dropped.WithLabelValues(a.Name(), kind).Inc()
	told := e.disp.Notice(func() {
		nctx, cancel := context.WithTimeout(detached, busyNoticeTimeout)
		defer cancel()
		busy(nctx, why)
	})
	e.log.Warn("queue full: event dropped", "platform", a.Name(), "channel", post.Channel, "kind", kind, "why", why, "told", told)
}
