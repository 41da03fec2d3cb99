// Package runwatch is the run-watch hub: runs in flight in this process publish what happens
// to them (progress steps, lines of a layer's output, the end), and status pages watching a run
// receive it live. It holds updates in memory only.
package runwatch

import (
	"sync"
	"time"

	"github.com/eosbot/eos/executor"
)

// The watch hub: runs in flight in this process publish what happens to them, and status
// pages watching a run receive it live. It lives in memory only; a page watching a run of
// another process (or one that ended long ago) reads the store instead.

const (
	// watchKeep is how many updates of a run a page opened mid-run gets as its past.
	watchKeep = 2000
	// watchLinger is how long a finished run's updates stay for pages opened just after.
	watchLinger = 10 * time.Minute
	// watchBuffer is how many updates wait for a slow page before it starts missing them.
	watchBuffer = 256
)

type Hub struct {
	now func() time.Time

	mu   sync.Mutex
	runs map[string]*watchedRun
}

type watchedRun struct {
	past     []RunUpdate
	subs     map[*watcher]struct{}
	finished time.Time // zero while it runs
}

// watcher is one page following a run. missed counts updates dropped because its channel
// was full; the next one it gets says how many.
type watcher struct {
	ch     chan RunUpdate
	missed int
}

func NewHub(now func() time.Time) *Hub { return &Hub{now: now, runs: map[string]*watchedRun{}} }

// begin makes run id watchable: from now on Watch follows it live.
func (h *Hub) Begin(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.Sweep()
	h.runs[id] = &watchedRun{subs: map[*watcher]struct{}{}}
}

// publish hands u to every page watching run id, never waiting for one: a page whose buffer
// is full misses u (the last slot is kept for the final update). An update with Finished
// ends the run: every watcher's channel is closed after it. Updates of a run that did not
// begin here, or that finished, are dropped.
func (h *Hub) Publish(id string, u RunUpdate) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.Sweep()
	r := h.runs[id]
	if r == nil || !r.finished.IsZero() {
		return
	}
	if u.Time.IsZero() {
		u.Time = h.now()
	}
	r.past = append(r.past, u)
	if len(r.past) > 2*watchKeep { // compact now and then, not on every update
		r.past = append([]RunUpdate(nil), r.past[len(r.past)-watchKeep:]...)
	}
	for w := range r.subs {
		if !u.Finished && len(w.ch) >= cap(w.ch)-1 {
			w.missed++
			continue
		}
		sent := u
		sent.Missed = w.missed
		w.ch <- sent // room is there: checked above, and only publish sends, under h.mu
		w.missed = 0
	}
	if u.Finished {
		r.finished = h.now()
		for w := range r.subs {
			close(w.ch)
		}
		r.subs = nil
	}
}

// watch is Engine.Watch.
func (h *Hub) Watch(id string) (past []RunUpdate, live <-chan RunUpdate, stop func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.Sweep()
	r := h.runs[id]
	if r == nil {
		ch := make(chan RunUpdate)
		var once sync.Once
		return nil, ch, func() { once.Do(func() { close(ch) }) }
	}
	keep := r.past[max(0, len(r.past)-watchKeep):]
	past = append([]RunUpdate(nil), keep...)
	w := &watcher{ch: make(chan RunUpdate, watchBuffer)}
	if !r.finished.IsZero() {
		close(w.ch)
		return past, w.ch, func() {}
	}
	r.subs[w] = struct{}{}
	return past, w.ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := r.subs[w]; ok {
			delete(r.subs, w)
			close(w.ch)
		}
	}
}

// sweep forgets the runs that finished watchLinger ago. The caller holds h.mu.
func (h *Hub) Sweep() {
	now := h.now()
	for id, r := range h.runs {
		if !r.finished.IsZero() && now.Sub(r.finished) >= watchLinger {
			delete(h.runs, id)
		}
	}
}

// RunUpdate is one thing that happened in a run, for a page watching it live.
type RunUpdate struct {
	// Event is a layer's progress step; zero when the update is only a line of output or the end.
	Event executor.Event `json:"event,omitzero"`
	// Line is a line of a layer's own output (Terraform's messages, a Salt state's result).
	Line  string             `json:"line,omitempty"`
	Layer executor.LayerName `json:"layer,omitempty"`
	// Finished is set on the last update of a run: its outcome is in the store.
	Finished bool `json:"finished,omitempty"`
	// Missed is how many updates this watcher did not get just before this one, because it
	// read too slowly; the run never waits for a watcher.
	Missed int       `json:"missed,omitempty"`
	Time   time.Time `json:"time"`
}
