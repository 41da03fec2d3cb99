package salt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// Waits between looks at a job's returns in /jobs/<jid>.
const (
	// firstPoll is the first wait, and the wait after a minion's return event when /jobs does
	// not show that return yet; later waits double up to the configured PollInterval.
	firstPoll = 250 * time.Millisecond
	// safetyPoll is how often /jobs is looked at while the event stream is up and no return
	// is awaited, in case the stream lost a return event.
	safetyPoll = 30 * time.Second
)

// follow waits until every minion of j has returned, handing each state the event stream
// reports to w.state and each minion's return to w.ret.
//
// With a stream (es not nil), a minion's return event (salt/job/<jid>/ret/<minion>) makes
// follow look at /jobs at once for that minion, so every state the stream reported before it
// is handed on first; a dry run takes the return the event carries instead (eventReturn).
// Without a stream, or once it ends, follow polls /jobs as minions finish, taking whatever is there. Minions that
// have not returned when the timeout passes are reported as unreachable.
//
// The job is never submitted again: while salt-api or the master does not answer, /jobs is
// looked at again with backoff (w.notice hears "salt-api not answering for 40 s, retrying"),
// and when a job goes waitNotice without a state or a return, w.notice hears which minions it
// waits for. For an apply, an end Eos could not see (salt-api not back in time, or a minion's
// return missing at the timeout after salt-api stopped answering) is an executor.UnknownError.
func (l *Layer) follow(ctx context.Context, j job, es *eventStream, w *watch) error {
	f := &follower{l: l, j: j, w: w, seen: map[string]bool{}, signalled: map[string]bool{}, heard: map[string]bool{}}
	var events <-chan busEvent
	if es != nil {
		events = es.events
	}
	start := l.now()
	deadline := start.Add(l.timeout)
	f.progress, f.told, f.until = start, start, deadline
	wait := firstPoll
	poll, all := events == nil, true
	for {
		// Before looking at /jobs, which may hang while the master is away.
		f.waiting()
		if poll {
			if err := f.poll(ctx, all || events == nil); err != nil {
				switch {
				case errors.Is(ctx.Err(), context.Canceled):
					return ctx.Err()
				case f.lastDown == nil && ctx.Err() != nil && f.unsure():
					return f.timedOut(l.now().Sub(start).Round(time.Second))
				case f.lastDown == nil && ctx.Err() != nil:
					return ctx.Err()
				}
				return f.unseen(err)
			}
			if len(f.seen) == len(j.minions) {
				return nil
			}
			if err := f.checkLost(ctx); err != nil {
				return err
			}
			if len(f.seen) == len(j.minions) { // checkLost's last look took the returns
				return nil
			}
		}
		left := deadline.Sub(l.now())
		if left <= 0 {
			return f.timedOut(l.timeout)
		}
		next := wait
		if events != nil && !f.awaiting() {
			// A stream open only to see returns sooner (a dry run) looks at /jobs more
			// often, so that a lost return event costs it a few seconds at most. Not every
			// poll interval: salt-api answers a look at a running job only when it ends (a
			// runner, about a second), which would hold up the return event behind it.
			next = l.safety
			if es.quick {
				next = l.quickSafety
			}
		} else {
			wait = min(2*wait, l.poll)
		}
		// Wake up too when the progress may have to say which minions the job waits for.
		tell := f.progress
		if f.told.After(tell) {
			tell = f.told
		}
		t := time.NewTimer(min(next, left, max(tell.Add(l.waitNotice).Sub(l.now()), firstPoll)))
		select {
		case <-ctx.Done():
			t.Stop()
			if f.unsure() && errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return f.timedOut(l.now().Sub(start).Round(time.Second))
			}
			return ctx.Err()
		case <-t.C:
			poll, all = true, events == nil || !f.awaiting()
		case ev, ok := <-events:
			t.Stop()
			if !ok {
				executor.Log(ctx, l.log).Warn("salt-api's event stream ended; following the job through /jobs", "jid", j.jid, "err", es.err)
				events = nil
				poll, all, wait = true, true, firstPoll
				continue
			}
			if poll = f.event(ctx, ev); poll {
				all, wait = false, firstPoll
			}
			if len(f.seen) == len(j.minions) { // every return came with its event (a dry run)
				return nil
			}
		}
	}
}

// follower is follow's bookkeeping for one job.
type follower struct {
	l *Layer
	j job
	w *watch
	// seen are the minions whose return was taken from /jobs; signalled those whose return
	// event came through the stream.
	seen, signalled map[string]bool
	// progress is when the job last showed a state or a return; told when the progress last
	// said which minions it waits for.
	progress, told time.Time
	// down is the longest time salt-api (or the master) did not answer, lastDown why, and
	// downSince when the last such time began.
	down      time.Duration
	lastDown  error
	downSince time.Time
	// slowest is the longest a look at /jobs took when it took slowAnswer or more: salt-api
	// holds a request while its master is away (its ZeroMQ request waits for the master to
	// come back), so a slow answer is an outage too.
	slowest time.Duration
	// checked is when the minions were last asked whether they still run the job; idle
	// when each first said it did not (lost.go).
	checked time.Time
	idle    map[string]time.Time
	// until is when the follow ends: no new look at /jobs is retried after it.
	until time.Time
	// heard are the minions known to have run the job: a state of theirs came through the
	// stream, or saltutil.find_job found them running it.
	heard map[string]bool
}

// meanwhile says how salt-api or the master was away while the job ran.
func (f *follower) meanwhile() string {
	if f.lastDown != nil {
		return fmt.Sprintf("%s stopped answering for %s meanwhile", who(f.lastDown), roughly(f.down))
	}
	return fmt.Sprintf("salt-api once took %s to answer meanwhile, as it does while its master is away", roughly(f.slowest))
}

// troubled reports whether salt-api or the master was away while the job ran, so that a
// return may have been lost with it.
func (f *follower) troubled() bool { return f.lastDown != nil || f.slowest > 0 }

// unsure reports whether a minion that has not returned may have applied states: salt-api or
// the master was away meanwhile, or the minion was heard running the job (a state's event, or
// saltutil.find_job), so its return is late or lost rather than never coming.
func (f *follower) unsure() bool {
	if f.troubled() {
		return true
	}
	for _, m := range f.missing() {
		if f.heard[m] {
			return true
		}
	}
	return false
}

// waiting tells the progress which minions the job waits for when it has shown nothing for
// waitNotice: "waiting for eos-minion to return job J (2 min)", again every waitNotice.
func (f *follower) waiting() {
	now := f.l.now()
	if f.w == nil || f.w.notice == nil || now.Sub(f.progress) < f.l.waitNotice || now.Sub(f.told) < f.l.waitNotice {
		return
	}
	f.told = now
	f.w.notice(fmt.Sprintf("waiting for %s to return job %s (%s)", strings.Join(f.missing(), ", "), f.j.jid, roughly(now.Sub(f.progress))), false)
}

// missing are the minions that have not returned.
func (f *follower) missing() []string {
	var out []string
	for _, m := range f.j.minions {
		if !f.seen[m] {
			out = append(out, m)
		}
	}
	return out
}

// unseen is the error for a job Eos stopped following because salt-api did not answer (or
// answered an error): for an apply, the job may still be running, so its end is unknown.
func (f *follower) unseen(err error) error {
	err = fmt.Errorf("following job %s: %w", f.j.jid, err)
	if f.j.test {
		return err
	}
	if f.lastDown != nil && (executor.Transient(err) || errors.Is(err, context.DeadlineExceeded)) {
		err = &outageError{who: who(f.lastDown), down: f.l.now().Sub(f.downSince), err: f.lastDown}
	}
	return executor.Unknown(whatOf(f.w, f.j), "salt-run jobs.lookup_jid "+f.j.jid, err)
}

// awaiting reports whether a minion's return event came but /jobs did not show the return yet.
func (f *follower) awaiting() bool {
	for m := range f.signalled {
		if !f.seen[m] {
			return true
		}
	}
	return false
}

// event handles one event of the stream; it reports whether /jobs should be looked at now.
func (f *follower) event(ctx context.Context, ev busEvent) bool {
	t, ok := parseJobTag(ev.Tag)
	if !ok || t.jid != f.j.jid || f.seen[t.minion] || !slices.Contains(f.j.minions, t.minion) {
		return false
	}
	switch t.kind {
	case "ret":
		if raw, ok := f.eventReturn(t, ev); ok {
			f.take(t.minion, raw)
			return false
		}
		f.signalled[t.minion] = true
		return true
	case "prog":
		if f.w == nil || f.w.state == nil {
			return false
		}
		s, err := parseProg(ev.Data)
		if err != nil {
			executor.Log(ctx, f.l.log).Warn("skipping a state progress event", "tag", ev.Tag, "err", err)
			return false
		}
		f.progress = f.l.now()
		f.heard[t.minion] = true
		f.w.state(t.minion, s)
	}
	return false
}

// poll looks at /jobs/<jid> and hands on the returns of minions not seen yet: all of them, or
// only those whose return event came.
func (f *follower) poll(ctx context.Context, all bool) error {
	var out struct {
		Return []map[string]json.RawMessage `json:"return"`
	}
	outage := func(down time.Duration, err error) {
		f.down, f.lastDown, f.downSince = max(f.down, down), err, f.l.now().Add(-down)
	}
	asked := f.l.now()
	if err := f.l.retryUntil(ctx, f.until, f.w, outage, func(ctx context.Context) error {
		return f.l.api.call(ctx, http.MethodGet, "/jobs/"+url.PathEscape(f.j.jid), nil, &out)
	}); err != nil {
		return err
	}
	if took := f.l.now().Sub(asked); took >= slowAnswer && f.lastDown == nil {
		executor.Log(ctx, f.l.log).Warn("salt-api was slow to answer; the master may have been away", "jid", f.j.jid, "took", took.Round(time.Millisecond))
		f.slowest = max(f.slowest, took)
	}
	if len(out.Return) == 0 {
		return nil
	}
	for _, m := range f.j.minions {
		raw, ok := out.Return[0][m]
		if !ok || f.seen[m] || !(all || f.signalled[m]) {
			continue
		}
		f.take(m, raw)
	}
	return nil
}

// eventReturn is the return a dry run takes from minion t.minion's return event, which
// carries the value /jobs gives for it a look later (and a look costs salt-api a runner, most
// of a second). Only a dry run's, only when the layer trusts return events (the default), and
// only from an event shaped as the master's own (cmd _return, the tag's minion and jid): a
// minion may fire events with any tag onto the master's bus (event.fire_master), so an apply's
// outcome always comes from /jobs, which the master fills only from each minion's own
// authenticated return (doc.go, "Whose word a return is").
func (f *follower) eventReturn(t jobTag, ev busEvent) (json.RawMessage, bool) {
	if !f.j.test || !f.l.eventReturns {
		return nil, false
	}
	var d struct {
		Cmd    string          `json:"cmd"`
		ID     string          `json:"id"`
		JID    string          `json:"jid"`
		Return json.RawMessage `json:"return"`
	}
	if json.Unmarshal(ev.Data, &d) != nil || d.Cmd != "_return" || d.ID != t.minion || d.JID != f.j.jid || len(d.Return) == 0 {
		return nil, false
	}
	return d.Return, true
}

// take hands on minion m's return raw, once.
func (f *follower) take(m string, raw json.RawMessage) {
	f.seen[m] = true
	f.progress = f.l.now()
	if f.w != nil && f.w.ret != nil {
		f.w.ret(parseReturn(m, raw))
	}
}

// timedOut names the minions that did not return. For an apply, when a missing minion was
// heard running the job, or salt-api or the master was away meanwhile, its return is late or
// was lost rather than never coming: the apply's end is unknown. A minion never heard from is
// unreachable, and fails the layer.
func (f *follower) timedOut(within time.Duration) error {
	missing := strings.Join(f.missing(), ", ")
	if f.unsure() && !f.j.test {
		why := "it was running the job: still running, or its return was lost"
		if f.troubled() {
			why = f.meanwhile() + ": its return may have been lost"
		}
		return executor.Unknown(whatOf(f.w, f.j), "salt-run jobs.lookup_jid "+f.j.jid, fmt.Errorf(
			"minion %s had not returned job %s within %s, and %s", missing, f.j.jid, within, why))
	}
	return fmt.Errorf("minion %s did not return within %s (unreachable, or still running job %s)", missing, within, f.j.jid)
}
