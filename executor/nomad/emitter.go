package nomad

import (
	"fmt"
	"time"

	"github.com/eosbot/eos/executor"
)

// emitter sends progress events for one job, deduplicated, with the layer, unit and time
// filled in. A nil report is allowed.
type emitter struct {
	report func(executor.Event)
	base   executor.Event
	last   string
	// done is the count of the last status, which notes repeat.
	done int
	// output, when set, receives each new status as a line ("job grafana: 1/2 allocations healthy").
	output func(line string)
}

func newEmitter(report func(executor.Event), up unitPlan) *emitter {
	return &emitter{report: report, base: executor.Event{
		Layer: executor.Nomad, Unit: up.Service, Resource: "job " + up.JobID, Action: actionOf(up.Action), Total: up.Total,
	}}
}

// send reports done allocations out of the job's total with a message, unless it repeats the
// previous event.
func (e *emitter) send(done int, msg string) {
	if e == nil || (e.report == nil && e.output == nil) {
		return
	}
	key := fmt.Sprintf("%d/%s", done, msg)
	if key == e.last {
		return
	}
	e.last, e.done = key, done
	e.post(done, msg)
}

// note reports something that happened while the status stays the same ("allocation
// d877c090: task app exited 1 (restart 1 of 2)"): the next status is sent only if it
// changes.
func (e *emitter) note(msg string) {
	if e == nil {
		return
	}
	e.postNotice(e.done, msg)
}

// notice reports a passing condition ("Nomad not answering for 40 s, retrying"): the next
// status is sent even if it did not change, to say the condition passed.
func (e *emitter) notice(msg string) {
	if e == nil {
		return
	}
	e.last = ""
	e.postNotice(e.done, msg)
}

func (e *emitter) post(done int, msg string) { e.emit(done, msg, false) }

// postNotice posts msg as a notice: the progress post shows it beside the count.
func (e *emitter) postNotice(done int, msg string) { e.emit(done, msg, true) }

func (e *emitter) emit(done int, msg string, notice bool) {
	if e.report == nil && e.output == nil {
		return
	}
	if e.output != nil {
		e.output(e.base.Resource + ": " + msg)
	}
	if e.report == nil {
		return
	}
	ev := e.base
	ev.Done, ev.Message, ev.Notice, ev.Time = done, msg, notice, time.Now()
	if ev.Total < done {
		ev.Total = done
	}
	e.report(ev)
}

// setTotal changes the job's total when Nomad knows better (system jobs, deployments).
func (e *emitter) setTotal(n int) {
	if e != nil && n > 0 {
		e.base.Total = n
	}
}
