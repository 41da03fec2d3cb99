package queue

import (
	"context"
	"sync"
)

// Flight counts work in flight, like a sync.WaitGroup, but may be waited on with a context
// and counted up again while someone waits. The zero value is idle.
type Flight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to zero; nil while n is zero
}

// Add changes the count by delta.
func (f *Flight) Add(delta int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 && delta > 0 {
		f.idle = make(chan struct{})
	}
	f.n += delta
	switch {
	case f.n < 0:
		panic("queue: flight count below zero")
	case f.n == 0 && f.idle != nil:
		close(f.idle)
		f.idle = nil
	}
}

// Done is Add(-1).
func (f *Flight) Done() { f.Add(-1) }

// Wait returns when the count is zero.
func (f *Flight) Wait() { _ = f.WaitCtx(context.Background()) }

// WaitCtx returns nil when the count is zero, or ctx's error when ctx ends first.
func (f *Flight) WaitCtx(ctx context.Context) error {
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

// Zero reports whether the count is zero.
func (f *Flight) Zero() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n == 0
}
