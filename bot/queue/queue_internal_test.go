package queue

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// convKey names a conversation, as the engine keys its queue.
type convKey struct{ platform, root string }

// trace records the order in which handlers ran.
type trace struct {
	mu   sync.Mutex
	seen []string
}

func (tr *trace) add(s string) { tr.mu.Lock(); tr.seen = append(tr.seen, s); tr.mu.Unlock() }
func (tr *trace) get() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.seen)
}

func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen", what)
	}
}

// One conversation's events run one after the other in the order they came; another
// conversation's run beside them.
func TestDispatcherKeepsAConversationInOrder(t *testing.T) {
	d := New[convKey](4, 16, 5*time.Second)
	a, b := convKey{"console", "1"}, convKey{"console", "2"}
	var tr trace
	hold, held, bDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	ctx := context.Background()
	d.Submit(ctx, a, func() { close(held); <-hold; tr.add("a1") })
	d.Submit(ctx, a, func() { tr.add("a2") })
	d.Submit(ctx, b, func() { tr.add("b1"); close(bDone) })
	within(t, held, "a1 starting")
	within(t, bDone, "b1 running while a1 is held")
	if got := tr.get(); !slices.Equal(got, []string{"b1"}) {
		t.Fatalf("while a1 is held, ran %v; want only b1 (a2 waits for a1)", got)
	}
	close(hold)
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := d.busy.WaitCtx(wctx); err != nil {
		t.Fatal("the dispatcher never went idle")
	}
	if got := tr.get(); !slices.Equal(got, []string{"b1", "a1", "a2"}) {
		t.Errorf("ran %v, want b1, a1, a2", got)
	}
}

// Beyond MaxConcurrent, events wait rather than drop; beyond MaxQueued the adapter is let go
// after the wait, with the event refused.
func TestDispatcherQueuesThenRefuses(t *testing.T) {
	d := New[convKey](1, 2, 5*time.Second)
	d.wait = 10 * time.Millisecond
	ctx := context.Background()
	hold, held, second := make(chan struct{}), make(chan struct{}), make(chan struct{})
	if !d.Submit(ctx, convKey{root: "1"}, func() { close(held); <-hold }) {
		t.Fatal("the first event was refused")
	}
	within(t, held, "the first event starting")
	if !d.Submit(ctx, convKey{root: "2"}, func() { close(second) }) {
		t.Fatal("an event beyond MaxConcurrent was refused instead of queued")
	}
	select {
	case <-second:
		t.Fatal("a second event ran beside the first with MaxConcurrent 1")
	default:
	}
	if d.Submit(ctx, convKey{root: "3"}, func() { t.Error("a refused event ran") }) {
		t.Fatal("an event beyond MaxQueued was accepted")
	}
	close(hold)
	within(t, second, "the queued event running once there was room")
	d.busy.Wait()
	if !d.Submit(ctx, convKey{root: "3"}, func() {}) {
		t.Error("an event was refused once the queue had room again")
	}
	d.busy.Wait()
}
