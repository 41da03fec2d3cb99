package salt

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// threeStates is a minion's return of three states that change; on the real run, failLast
// makes the third fail.
func threeStates(test, failLast bool) map[string]any {
	var r, last any = true, true
	if test {
		r, last = nil, nil
	} else if failLast {
		last = false
	}
	lastChanges := map[string]any{"mount": true}
	if last == false {
		lastChanges = nil
	}
	return states(
		s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", r, map[string]any{"created": "data-nextcloud"}, "Created Logical Volume data-nextcloud", 0),
		s("blockdev", "fs-nextcloud", "/dev/vg0/data-nextcloud", "formatted", r, map[string]any{"new": "xfs"}, "/dev/vg0/data-nextcloud formatted with xfs", 1),
		s("mount", "mount-nextcloud", "/srv/data/nextcloud", "mounted", last, lastChanges, "mount: /srv/data/nextcloud: wrong fs type", 2),
	)
}

// step is the part of a progress event the tests compare.
type step struct {
	Resource, Message string
	Done, Total       int
}

func steps(events []executor.Event) []step {
	var out []step
	for _, e := range events {
		out = append(out, step{e.Resource, e.Message, e.Done, e.Total})
	}
	return out
}

// recorder collects progress events from the layer's goroutine.
type recorder struct {
	mu     sync.Mutex
	events []executor.Event
	// on, when set, sees each event as it comes.
	on func(executor.Event)
}

func (r *recorder) report(e executor.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	if r.on != nil {
		r.on(e)
	}
}

func (r *recorder) all() []executor.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]executor.Event(nil), r.events...)
}

// How states are named: by the stream's progress events, which carry a state's ID and name
// but not its module and function, and from a minion's return in /jobs.
const (
	lvID        = "data-nextcloud"
	fsID        = "fs-nextcloud (/dev/vg0/data-nextcloud)"
	mountID     = "mount-nextcloud (/srv/data/nextcloud)"
	pkgID       = "xfsprogs"
	lvPolled    = "lvm.lv_present data-nextcloud"
	fsPolled    = "blockdev.formatted fs-nextcloud (/dev/vg0/data-nextcloud)"
	mountPolled = "mount.mounted mount-nextcloud (/srv/data/nextcloud)"
)

// twoMinions runs the lvm state on node1 and the clean one on node2.
func twoMinions(m string, test bool) any {
	if m == "node1" {
		return lvmStates(test)
	}
	return cleanStates()
}

var twoMinionSteps = []step{
	{"node1: " + lvID, "changed", 1, 6},
	{"node1: " + fsID, "changed", 2, 6},
	{"node1: " + mountID, "changed", 3, 6},
	{"node1: " + pkgID, "unchanged", 4, 6},
	{"node2: " + lvID, "unchanged", 5, 6},
	{"node2: " + pkgID, "unchanged", 6, 6},
}

func TestApplyReportsEachStateWhileTheJobRuns(t *testing.T) {
	tests := []struct {
		name    string
		minions []string
		run     func(m string, test bool) any
		// holdUntil is how many states must be reported before the first minion may return.
		holdUntil int
		// cacheAhead shows every return in /jobs at the first return event.
		cacheAhead bool
		want       []step
		summary    string
	}{
		{"three states", []string{"node1"}, func(_ string, test bool) any { return threeStates(test, false) }, 3, false,
			[]step{
				{"node1: " + lvID, "changed", 1, 3},
				{"node1: " + fsID, "changed", 2, 3},
				{"node1: " + mountID, "changed", 3, 3},
			}, "3 states on node1, 3 changed"},
		{"two minions", []string{"node1", "node2"}, twoMinions, 4, false, twoMinionSteps, "6 states on node1, node2, 3 changed"},
		{"job cache ahead of the stream", []string{"node1", "node2"}, twoMinions, 4, true, twoMinionSteps, "6 states on node1, node2, 3 changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSaltAPI(t, tt.minions...)
			f.streaming = true
			f.run = func(m, _ string, _ map[string]any, test bool) any { return tt.run(m, test) }
			// The first return waits until the layer has reported the minion's states: they
			// must come from the stream while the job runs, not from its end.
			hold := make(chan struct{})
			f.beforeReturn, f.cacheAhead = hold, tt.cacheAhead
			l := newLayer(t, f, nil)
			p, err := l.Plan(context.Background(), lvmSpec(tt.minions...))
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			rec := &recorder{on: func(e executor.Event) {
				if e.Done == tt.holdUntil {
					close(hold)
				}
			}}
			res, err := l.Apply(context.Background(), lvmSpec(tt.minions...), p, executor.Observe(rec.report, nil))
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got := steps(rec.all()); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %+v\nwant %+v", got, tt.want)
			}
			if res.Status != executor.ResultOK || res.Summary != tt.summary || res.Done != len(tt.want) {
				t.Errorf("result %+v, want ok with %q", res, tt.summary)
			}
			calls := f.applyCalls()
			if calls[0].StateEvents || !calls[len(calls)-1].StateEvents {
				t.Errorf("state_events: plan %v, apply %v; want only the apply to ask for them", calls[0].StateEvents, calls[len(calls)-1].StateEvents)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.opened != 2 {
				t.Errorf("%d streams opened, want 2 (the plan's and the apply's)", f.opened)
			}
			for jid, j := range f.jobs {
				// A dry run takes each return from its event; an apply looks at /jobs once
				// per return event, for the return only the minion itself can put there.
				if want := map[bool]int{true: 0, false: len(tt.minions)}[j.test]; j.streamed && j.polls != want {
					t.Errorf("job %s (test %v) was looked at %d times in /jobs, want %d", jid, j.test, j.polls, want)
				}
			}
		})
	}
}

func TestApplyPollsWhenTheStreamIsUnavailable(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(f *fakeSaltAPI)
		logins int
	}{
		{"no /events", func(f *fakeSaltAPI) { f.streaming = false }, 1},
		// The plan's stream and the apply's each log in again once.
		{"refused even after logging in", func(f *fakeSaltAPI) { f.eventsStatus = http.StatusUnauthorized }, 3},
		{"server error", func(f *fakeSaltAPI) { f.eventsStatus = http.StatusServiceUnavailable }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSaltAPI(t, "node1")
			f.streaming = true
			f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, true) }
			tt.setup(f)
			logs := &syncBuffer{}
			res, events, err := applyOnce(t, newLayer(t, f, logs), lvmSpec("node1"))
			wantErr := "lvm: " + mountPolled + " on node1 failed: mount: /srv/data/nextcloud: wrong fs type"
			if err == nil || err.Error() != wantErr {
				t.Fatalf("Apply error = %v, want %q", err, wantErr)
			}
			want := []step{
				{"node1: " + lvPolled, "changed", 1, 3},
				{"node1: " + fsPolled, "changed", 2, 3},
				{"node1: " + mountPolled, "failed: mount: /srv/data/nextcloud: wrong fs type", 3, 3},
			}
			if got := steps(events); !reflect.DeepEqual(got, want) {
				t.Errorf("events\n got %+v\nwant %+v", got, want)
			}
			if res.Status != executor.ResultFailed || res.Failed == nil || res.Failed.Address != "node1: "+mountPolled {
				t.Errorf("result %+v, want failed at the mount state", res)
			}
			if c := f.applyCalls(); c[len(c)-1].StateEvents {
				t.Error("the apply asked for state events without a stream to carry them")
			}
			if !strings.Contains(logs.String(), "cannot follow salt-api's event stream") {
				t.Errorf("the log does not say the stream is unavailable:\n%s", logs.String())
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.logins != tt.logins {
				t.Errorf("%d logins, want %d", f.logins, tt.logins)
			}
		})
	}
}

func TestEventsWithAnExpiredTokenLogInAgain(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.streaming = true
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, false) }
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	f.expireEvents = true
	f.mu.Unlock()
	rec := &recorder{}
	if _, err := l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(rec.report, nil)); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	want := []step{{"node1: " + lvID, "changed", 1, 3}, {"node1: " + fsID, "changed", 2, 3}, {"node1: " + mountID, "changed", 3, 3}}
	if got := steps(rec.all()); !reflect.DeepEqual(got, want) {
		t.Errorf("events\n got %+v\nwant %+v (streamed after logging in again)", got, want)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.logins != 2 || f.opened != 2 {
		t.Errorf("%d logins and %d streams, want 2 logins (one after the 401 on /events) and 2 streams (the plan's, the apply's)", f.logins, f.opened)
	}
}

func TestStreamDroppingMidJobFallsBackToPolling(t *testing.T) {
	tests := []struct {
		name      string
		dropAfter int // the job's events sent before the connection breaks (the first is "new")
		failLast  bool
		want      []step
		wantErr   string
	}{
		{"after two states, the third fails", 3, true, []step{
			{"node1: " + lvID, "changed", 1, 3},
			{"node1: " + fsID, "changed", 2, 3},
			{"node1: " + mountPolled, "failed: mount: /srv/data/nextcloud: wrong fs type", 3, 3},
		}, "lvm: " + mountPolled + " on node1 failed: mount: /srv/data/nextcloud: wrong fs type"},
		{"before any state", 1, false, []step{
			{"node1: " + lvPolled, "changed", 1, 3},
			{"node1: " + fsPolled, "changed", 2, 3},
			{"node1: " + mountPolled, "changed", 3, 3},
		}, ""},
		{"after the last state, before the return", 4, false, []step{
			{"node1: " + lvID, "changed", 1, 3},
			{"node1: " + fsID, "changed", 2, 3},
			{"node1: " + mountID, "changed", 3, 3},
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSaltAPI(t, "node1")
			f.streaming = true
			f.dropAfter = tt.dropAfter
			f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, tt.failLast) }
			logs := &syncBuffer{}
			res, events, err := applyOnce(t, newLayer(t, f, logs), lvmSpec("node1"))
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Fatalf("Apply error = %v, want %q", err, tt.wantErr)
			}
			if got := steps(events); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events\n got %+v\nwant %+v", got, tt.want)
			}
			wantStatus := executor.ResultOK
			if tt.wantErr != "" {
				wantStatus = executor.ResultFailed
			}
			if res.Status != wantStatus || res.Done != 3 || res.Total != 3 {
				t.Errorf("result %+v, want %s with 3/3 done", res, wantStatus)
			}
			if !strings.Contains(logs.String(), "event stream ended; following the job through /jobs") {
				t.Errorf("the log does not say the stream ended:\n%s", logs.String())
			}
		})
	}
}

func TestStreamedApplyStillEndsAtTheTimeoutAndOnCancel(t *testing.T) {
	t.Run("a minion never returns", func(t *testing.T) {
		f := newFakeSaltAPI(t, "node1", "node2")
		f.streaming = true
		f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
		l := newLayer(t, f, nil)
		p, err := l.Plan(context.Background(), lvmSpec("node1", "node2"))
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		f.mu.Lock()
		f.down["node2"] = true
		f.mu.Unlock()
		l.timeout = 300 * time.Millisecond
		rec := &recorder{}
		res, err := l.Apply(context.Background(), lvmSpec("node1", "node2"), p, executor.Observe(rec.report, nil))
		if err == nil || !strings.Contains(err.Error(), "minion node2 did not return within 300ms") {
			t.Fatalf("Apply error = %v, want node2 named as not returning", err)
		}
		if res.Status != executor.ResultFailed || res.Done != 4 || len(rec.all()) != 4 {
			t.Errorf("result %+v with %d events, want failed after node1's 4 states", res, len(rec.all()))
		}
	})
	t.Run("cancelled while states stream", func(t *testing.T) {
		f := newFakeSaltAPI(t, "node1")
		f.streaming = true
		f.beforeReturn = make(chan struct{}) // never closed: the job does not end by itself
		f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, false) }
		l := newLayer(t, f, nil)
		p, err := l.Plan(context.Background(), lvmSpec("node1"))
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rec := &recorder{on: func(e executor.Event) {
			if e.Done == 2 {
				cancel()
			}
		}}
		res, err := l.Apply(ctx, lvmSpec("node1"), p, executor.Observe(rec.report, nil))
		if !errors.Is(err, context.Canceled) || res.Status != executor.ResultCancelled {
			t.Fatalf("Apply = %+v, %v; want cancelled", res, err)
		}
		if n := len(rec.all()); n < 2 || n > 3 {
			t.Errorf("%d events, want the 2 before the cancel (and at most the one in flight)", n)
		}
	})
}

func TestLostReturnEventIsFoundByTheSafetyPoll(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.streaming = true
	f.dropRets = true
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, false) }
	l := newLayer(t, f, nil)
	l.safety = 50 * time.Millisecond
	res, events, err := applyOnce(t, l, lvmSpec("node1"))
	if err != nil || res.Status != executor.ResultOK || res.Done != 3 || len(events) != 3 {
		t.Fatalf("Apply = %+v (%d events), %v; want ok with 3 states", res, len(events), err)
	}
}
