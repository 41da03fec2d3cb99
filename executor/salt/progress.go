package salt

import (
	"fmt"
	"slices"
	"time"

	"github.com/eosbot/eos/executor"
)

// tally counts an apply's progress over its units.
type tally struct {
	done, changed int
	minions       []string
	failed        *executor.Change
}

// unitProgress turns one unit's run into progress events: each state of each minion once, in
// the order it finished, whether the event stream reported it as it finished or it first
// appears in the minion's return. The return (from /jobs) alone decides whether the unit
// failed; err holds the first failure.
type unitProgress struct {
	l      *Layer
	unit   string
	t      *tally
	total  int
	report func(executor.Event)
	// reported are the run numbers (__run_num__) already reported, per minion.
	reported map[string]map[int]bool
	// streamed counts the states the event stream reported.
	streamed int
	err      error
	// output, when set, receives one line per state result ("node1: file.managed x: changed").
	output func(line string)
	// mask, when set, is the unit's masker: a state's id and name reach the events and the
	// failure only when it shows them (namemask.go).
	mask *diffMasker
	// noticed is when the last notice was reported.
	noticed time.Time
}

// notice reports what the run waits for ("salt-api not answering for 40 s, retrying"), with
// the counts of the last event, at most once every noticeEvery; one that says the wait passed
// ("salt-api answering again", passed) is always reported, so the post does not keep the last.
func (p *unitProgress) notice(msg string, passed bool) {
	now := p.l.now()
	if !passed && !p.noticed.IsZero() && now.Sub(p.noticed) < noticeEvery {
		return
	}
	p.noticed = now
	ev := executor.Event{Layer: executor.Salt, Unit: p.unit, Done: p.t.done, Total: p.total, Message: msg, Time: now}
	if p.total > 0 {
		ev.Total = max(p.total, p.t.done)
	}
	if p.report != nil {
		p.report(ev)
	}
	if p.output != nil {
		p.output(msg)
	}
}

func newUnitProgress(l *Layer, unit string, t *tally, total int, report func(executor.Event)) *unitProgress {
	return &unitProgress{l: l, unit: unit, t: t, total: total, report: report, reported: map[string]map[int]bool{}}
}

// state reports a state the event stream said finished.
func (p *unitProgress) state(minion string, s stateResult) {
	if p.mask != nil {
		one := minionReturn{Minion: minion, States: []stateResult{s}, DataDir: p.l.knownDataDir(minion)}
		s = p.mask.namesOf(one).state(s)
	}
	if p.emit(minion, s) {
		p.streamed++
	}
}

// ret takes a minion's return: it reports the states the stream did not, then notes the
// first failure.
func (p *unitProgress) ret(m minionReturn) {
	if p.mask != nil {
		if m.DataDir == "" {
			m.DataDir = p.l.knownDataDir(m.Minion)
		}
		m = p.mask.namesOf(m).ret(m)
	}
	p.seeMinion(m.Minion)
	if m.Err != "" {
		if p.err == nil {
			p.t.failed = &executor.Change{Unit: p.unit, Action: executor.Update, Address: m.Minion, Detail: m.Err}
			p.err = fmt.Errorf("%s: minion %s: %s", p.unit, m.Minion, m.Err)
		}
		return
	}
	for _, s := range m.States {
		p.emit(m.Minion, s)
	}
	if s, bad := m.firstFailure(); bad && p.err == nil {
		p.t.failed = &executor.Change{Unit: p.unit, Action: executor.Update, Address: m.Minion + ": " + s.display(), Detail: s.Comment}
		p.err = fmt.Errorf("%s: %s on %s failed: %s", p.unit, s.display(), m.Minion, s.Comment)
	}
}

// emit reports one state unless it was reported already.
func (p *unitProgress) emit(minion string, s stateResult) bool {
	runs := p.reported[minion]
	if runs == nil {
		runs = map[int]bool{}
		p.reported[minion] = runs
	}
	if runs[s.RunNum] {
		return false
	}
	runs[s.RunNum] = true
	p.seeMinion(minion)
	p.t.done++
	ev := executor.Event{Layer: executor.Salt, Unit: p.unit, Resource: minion + ": " + s.display(),
		Action: executor.NoOp, Done: p.t.done, Total: p.total, Message: "unchanged", Time: p.l.now()}
	if p.total > 0 {
		ev.Total = max(p.total, p.t.done)
	}
	switch {
	case s.failed():
		ev.Action, ev.Message = executor.Update, "failed: "+firstLine(s.Comment)
	case s.Changed:
		p.t.changed++
		ev.Action, ev.Message = executor.Update, "changed"
	}
	if p.report != nil {
		p.report(ev)
	}
	if p.output != nil {
		p.output(ev.Resource + ": " + ev.Message)
	}
	return true
}

// seeMinion records a minion in the order it first reported.
func (p *unitProgress) seeMinion(m string) {
	if !slices.Contains(p.t.minions, m) {
		p.t.minions = append(p.t.minions, m)
	}
}
