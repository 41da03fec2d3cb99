package bot

import (
	"context"
	"fmt"
	"github.com/eosbot/eos/bot/runwatch"
	"log/slog"
	"sync"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// A run's output lines go to the watch hub at once (pages on this process see them live) and
// to the store once per ProgressInterval (pages on any replica, and after the run, see them).

// outputRetention is how long a run's output is kept.
const outputRetention = 30 * 24 * time.Hour

// outputLog collects a run's lines and writes them to the store in batches.
type outputLog struct {
	e  *Engine
	id string

	mu      sync.Mutex
	pending []store.OutputLine
	stored  int // lines written or dropped so far: the next line's number
	dropped int // lines past store.MaxOutputLines
	done    chan struct{}
	flushed chan struct{}
}

func newOutputLog(e *Engine, id string) *outputLog {
	o := &outputLog{e: e, id: id, done: make(chan struct{}), flushed: make(chan struct{})}
	go o.loop()
	return o
}

// add is the executor's output sink: the hub now, the store at the next flush.
func (o *outputLog) add(layer executor.LayerName, line string) {
	now := o.e.now()
	o.e.runs.watch.Publish(o.id, runwatch.RunUpdate{Layer: layer, Line: line, Time: now})
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, store.OutputLine{At: now, Layer: string(layer), Text: line})
}

func (o *outputLog) loop() {
	defer close(o.flushed)
	tick := time.NewTicker(o.e.cfg.ProgressInterval)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			o.flush(false)
		case <-o.done:
			o.flush(true)
			return
		}
	}
}

// flush writes the lines collected since the last flush. Past store.MaxOutputLines lines are
// counted, not kept, and the last flush puts how many in place of the last kept line. It
// writes while Eos stops too (the runs' context without its cancel), so a run's output is
// kept to its last line.
func (o *outputLog) flush(last bool) {
	o.mu.Lock()
	lines, from := o.pending, o.stored
	o.pending = nil
	o.mu.Unlock()
	if room := max(store.MaxOutputLines-from, 0); len(lines) > room {
		o.dropped += len(lines) - room
		lines = lines[:room]
	}
	if len(lines) > 0 {
		if err := o.e.st.AppendOutput(context.WithoutCancel(o.e.runs.ctx), o.id, from, lines); err != nil {
			o.e.log.Warn("storing a run's output", "run", o.id, "err", err)
		}
		o.mu.Lock()
		o.stored = from + len(lines)
		o.mu.Unlock()
	}
	if last && o.dropped > 0 {
		note := store.OutputLine{At: o.e.now(), Text: fmt.Sprintf("… and %d more lines, not kept", o.dropped+1)}
		if err := o.e.st.AppendOutput(context.WithoutCancel(o.e.runs.ctx), o.id, store.MaxOutputLines-1, []store.OutputLine{note}); err != nil {
			o.e.log.Warn("storing a run's output", "run", o.id, "err", err)
		}
	}
}

// close writes what is left and stops the loop; the run records its outcome after it.
func (o *outputLog) close(ctx context.Context) {
	close(o.done)
	select {
	case <-o.flushed:
	case <-ctx.Done():
	}
}

// logFailures logs each layer of r that did not end well with its error and rollback whole:
// the post may cut them, the log never does.
func logFailures(log *slog.Logger, r *store.Run) {
	for _, l := range r.Layers {
		switch l.Status {
		case executor.ResultFailed, executor.ResultUnknown, executor.ResultCancelled, executor.ResultHalted:
			attrs := []any{"layer", l.Layer, "status", l.Status, "error", l.Error}
			if l.Rollback != "" {
				attrs = append(attrs, "rollback", l.Rollback)
			}
			if l.Cause != nil {
				attrs = append(attrs, "cause", l.Cause.Kind)
			}
			if l.Check != "" {
				attrs = append(attrs, "check", l.Check)
			}
			log.Warn("layer did not finish well", attrs...)
		}
	}
}
