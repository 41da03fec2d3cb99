package salt

import (
	"context"
	"encoding/json"
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
// reports to w.state and each minion's return, read from /jobs/<jid>, to w.ret. /jobs is the
// source of truth for results; the stream says when to look.
//
// With a stream (es not nil), a minion's return event (salt/job/<jid>/ret/<minion>) makes
// follow look at /jobs at once; the return is taken from there only for minions whose event
// came, so every state the stream reported before it is handed on first. Without a stream, or
// once it ends, follow polls /jobs as minions finish, taking whatever is there. Minions that
// have not returned when the timeout passes are reported as unreachable.
func (l *Layer) follow(ctx context.Context, j job, es *eventStream, w *watch) error {
	f := &follower{l: l, j: j, w: w, seen: map[string]bool{}, signalled: map[string]bool{}}
	var events <-chan busEvent
	if es != nil {
		events = es.events
	}
	deadline := l.now().Add(l.timeout)
	wait := firstPoll
	poll, all := events == nil, true
	for {
		if poll {
			if err := f.poll(ctx, all || events == nil); err != nil {
				return err
			}
			if len(f.seen) == len(j.minions) {
				return nil
			}
		}
		left := deadline.Sub(l.now())
		if left <= 0 {
			return f.timedOut()
		}
		next := wait
		if events != nil && !f.awaiting() {
			next = l.safety
		} else {
			wait = min(2*wait, l.poll)
		}
		t := time.NewTimer(min(next, left))
		select {
		case <-ctx.Done():
			t.Stop()
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
	if err := f.l.api.call(ctx, http.MethodGet, "/jobs/"+url.PathEscape(f.j.jid), nil, &out); err != nil {
		return fmt.Errorf("following job %s: %w", f.j.jid, err)
	}
	if len(out.Return) == 0 {
		return nil
	}
	for _, m := range f.j.minions {
		raw, ok := out.Return[0][m]
		if !ok || f.seen[m] || !(all || f.signalled[m]) {
			continue
		}
		f.seen[m] = true
		if f.w != nil && f.w.ret != nil {
			f.w.ret(parseReturn(m, raw))
		}
	}
	return nil
}

// timedOut names the minions that did not return.
func (f *follower) timedOut() error {
	var missing []string
	for _, m := range f.j.minions {
		if !f.seen[m] {
			missing = append(missing, m)
		}
	}
	return fmt.Errorf("minion %s did not return within %s (unreachable, or still running job %s)", strings.Join(missing, ", "), f.l.timeout, f.j.jid)
}
