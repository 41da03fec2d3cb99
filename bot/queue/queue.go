// Package queue is an ordered, bounded work queue: work submitted under one key runs one item
// after the other, in the order it came; work under different keys runs side by side, at most
// a given number at once. At most a given number of items may be accepted and unfinished in
// all; beyond that, Submit waits a while for room and then refuses the item, so nothing is
// dropped without its caller knowing. It knows nothing of what the work is (the engine keys it
// by conversation) and imports nothing of Eos.
package queue

import (
	"context"
	"sync"
	"time"
)

// Queue runs work on its own goroutines, in order per key, bounded in all. It is safe for
// concurrent use.
type Queue[K comparable] struct {
	slots   chan struct{} // accepted items not finished: queued or running
	running chan struct{} // items running now
	notices chan struct{} // notices being run; one at a time
	wait    time.Duration

	mu   sync.Mutex
	keys map[K][]func() // each key's waiting items; present while drained
	busy Flight         // keys being drained, and notices
}

// New makes a queue that runs at most maxRunning items at once, accepts at most maxQueued
// unfinished items, and lets Submit wait up to wait for room.
func New[K comparable](maxRunning, maxQueued int, wait time.Duration) *Queue[K] {
	return &Queue[K]{
		slots:   make(chan struct{}, maxQueued),
		running: make(chan struct{}, maxRunning),
		notices: make(chan struct{}, 1),
		wait:    wait,
		keys:    map[K][]func(){},
	}
}

// Submit queues fn behind key's earlier items. It reports false, having queued nothing, when
// the queue stayed full for the wait or ctx ended first.
func (q *Queue[K]) Submit(ctx context.Context, key K, fn func()) bool {
	select {
	case q.slots <- struct{}{}:
	default:
		t := time.NewTimer(q.wait)
		defer t.Stop()
		select {
		case q.slots <- struct{}{}:
		case <-t.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	items, draining := q.keys[key]
	q.keys[key] = append(items, fn)
	if !draining {
		q.busy.Add(1)
		go q.drain(key)
	}
	return true
}

// drain runs key's items until its queue is empty.
func (q *Queue[K]) drain(key K) {
	defer q.busy.Done()
	for {
		q.mu.Lock()
		items := q.keys[key]
		if len(items) == 0 {
			delete(q.keys, key)
			q.mu.Unlock()
			return
		}
		fn := items[0]
		items[0] = nil
		q.keys[key] = items[1:]
		q.mu.Unlock()

		q.running <- struct{}{}
		fn()
		<-q.running
		<-q.slots
	}
}

// Notice runs fn (telling someone their item was refused) in the background, unless another
// notice is running already: under that much load, the caller has to make do with its log. It
// reports whether fn runs.
func (q *Queue[K]) Notice(fn func()) bool {
	select {
	case q.notices <- struct{}{}:
	default:
		return false
	}
	q.busy.Add(1)
	go func() {
		defer q.busy.Done()
		defer func() { <-q.notices }()
		fn()
	}()
	return true
}

// Queued is how many items are accepted and not finished.
func (q *Queue[K]) Queued() int { return len(q.slots) }

// Busy counts the keys being drained and the notices running: it is zero when every accepted
// item has finished.
func (q *Queue[K]) Busy() *Flight { return &q.busy }
