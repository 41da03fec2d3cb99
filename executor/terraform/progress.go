package terraform

import (
	"bytes"
	"time"

	"github.com/eosbot/eos/executor"
)

// progress follows Terraform's -json apply output across the units of one apply and turns it
// into executor.Events. Done counts planned changes that finished: a replacement finishes when
// both its destroy and its create have. It is an io.Writer fed from terraform-exec's output
// goroutine, one command at a time; read its fields only after the command returned.
type progress struct {
	report  func(executor.Event)
	now     func() time.Time
	total   int
	done    int
	unit    string
	line    []byte
	planned map[string]executor.Change // by unit and address
	steps   map[string]int             // hook completions still due, by unit and address
	applied []executor.Change
	failed  *executor.Change
	// started counts resource changes Terraform began; while it is 0 nothing was changed.
	started int
	// output, when set, receives each message's @message text (never attribute values),
	// passed through redact, the unit's secret masking, when that is set.
	output func(line string)
	redact func(string) string
}

func newProgress(changes []executor.Change, report func(executor.Event)) *progress {
	if report == nil {
		report = func(executor.Event) {}
	}
	p := &progress{
		report:  report,
		now:     time.Now,
		total:   len(changes),
		planned: make(map[string]executor.Change, len(changes)),
		steps:   make(map[string]int, len(changes)),
	}
	for _, c := range changes {
		k := c.Unit + "\x00" + c.Address
		p.planned[k] = c
		p.steps[k] = 1
		if c.Action == executor.Replace {
			p.steps[k] = 2
		}
	}
	return p
}

// forUnit starts following the apply of unit.
func (p *progress) forUnit(unit string) *progress {
	p.unit, p.line = unit, p.line[:0]
	return p
}

// Write takes a chunk of -json output and handles every complete line in it.
func (p *progress) Write(b []byte) (int, error) {
	p.line = append(p.line, b...)
	for {
		i := bytes.IndexByte(p.line, '\n')
		if i < 0 {
			break
		}
		if m, ok := parseUILine(p.line[:i]); ok {
			p.say(m.Message)
			p.handle(m)
		}
		p.line = p.line[i+1:]
	}
	return len(b), nil
}

// say hands a message's text to output.
func (p *progress) say(text string) {
	if p.output == nil || text == "" {
		return
	}
	if p.redact != nil {
		text = p.redact(text)
	}
	p.output(text)
}

func (p *progress) handle(m uiMessage) {
	if m.Hook == nil {
		return
	}
	addr := m.Hook.Resource.Addr
	k := p.unit + "\x00" + addr
	c, ok := p.planned[k]
	if !ok {
		c = executor.Change{Unit: p.unit, Address: addr, Action: hookAction(m.Hook.Action)}
	}
	switch m.Type {
	case "apply_start":
		if hookAction(m.Hook.Action) != executor.Read {
			p.started++
		}
		if p.steps[k] == 2 || !ok || c.Action != executor.Replace {
			p.emit(c, verbing(c.Action)+" "+addr)
		}
	case "apply_complete":
		if !ok || p.steps[k] == 0 {
			return
		}
		p.steps[k]--
		if p.steps[k] > 0 {
			return
		}
		p.done++
		p.applied = append(p.applied, c)
		p.emit(c, past(c.Action)+" "+addr)
	case "apply_errored":
		if p.failed == nil {
			f := c
			p.failed = &f
		}
		p.emit(c, "failed "+verbing(c.Action)+" "+addr)
	}
}

func (p *progress) emit(c executor.Change, msg string) {
	p.report(executor.Event{
		Layer: executor.Terraform, Unit: c.Unit, Resource: c.Address, Action: c.Action,
		Done: p.done, Total: p.total, Message: msg, Time: p.now(),
	})
}

// hookAction maps a hook's action name ("create", "update", "delete", ...) for resources that
// were not in the plan's list.
func hookAction(a string) executor.Action {
	switch a {
	case "create":
		return executor.Create
	case "update":
		return executor.Update
	case "delete":
		return executor.Delete
	case "replace":
		return executor.Replace
	case "read":
		return executor.Read
	}
	return executor.NoOp
}

func verbing(a executor.Action) string {
	switch a {
	case executor.Create:
		return "creating"
	case executor.Update:
		return "updating"
	case executor.Delete:
		return "destroying"
	case executor.Replace:
		return "replacing"
	case executor.Read:
		return "reading"
	}
	return "applying"
}

func past(a executor.Action) string {
	switch a {
	case executor.Create:
		return "created"
	case executor.Update:
		return "updated"
	case executor.Delete:
		return "destroyed"
	case executor.Replace:
		return "replaced"
	case executor.Read:
		return "read"
	}
	return "applied"
}
