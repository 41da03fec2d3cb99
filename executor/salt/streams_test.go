package salt

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// planWith plans lvmSpec on a fake salt-api set up by setup, and returns the plan's hash
// and how often each job was looked at in /jobs.
func planWith(t *testing.T, setup func(f *fakeSaltAPI, l *Layer)) (digest string, polls []int, opened int) {
	t.Helper()
	f := newFakeSaltAPI(t, "node1", "node2")
	f.streaming = true
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	setup(f, l)
	p, err := l.Plan(context.Background(), lvmSpec("node1", "node2"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, j := range f.jobs {
		if j.returns != nil && len(j.minions) == 2 {
			polls = append(polls, j.polls)
		}
	}
	return p.Digest, polls, f.opened
}

// A dry run takes each minion's return from its return event, without a look at /jobs (which
// costs salt-api a runner, most of a second), and plans exactly what polling /jobs plans.
func TestADryRunTakesItsReturnsFromTheirEvents(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	streamed, polls, opened := planWith(t, func(*fakeSaltAPI, *Layer) {})
	if streamed != polled || streamed == "" {
		t.Errorf("plan from the stream %q, from /jobs %q: want the same", streamed, polled)
	}
	if opened != 1 || len(polls) != 1 || polls[0] != 0 {
		t.Errorf("%d streams, /jobs looks per job %v; want 1 stream and no look", opened, polls)
	}
}

// A return event without the return (or one that does not parse) makes the layer look at
// /jobs at once, as it did for every return before returns were taken from events.
func TestABareReturnEventMakesTheDryRunLookAtJobs(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	got, polls, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.bareRets = true })
	if got != polled {
		t.Errorf("plan %q, want %q", got, polled)
	}
	if len(polls) != 1 || polls[0] < 1 {
		t.Errorf("/jobs looks per job %v, want at least one", polls)
	}
}

// A dry run's return event that never comes costs it quickSafety (5 s by default, 50 ms
// here), not the 30 s an apply's stream waits between its safety looks at /jobs: the layer's
// timeout here is 5 s, so waiting for the apply's safety look would fail the plan.
func TestADryRunWhoseReturnEventIsLostPollsJobs(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	got, polls, opened := planWith(t, func(f *fakeSaltAPI, l *Layer) { f.dropRets, l.quickSafety = true, 50*time.Millisecond })
	if got != polled || opened != 1 {
		t.Errorf("plan %q with %d streams, want %q with 1", got, opened, polled)
	}
	if len(polls) != 1 || polls[0] < 1 {
		t.Errorf("/jobs looks per job %v, want at least one", polls)
	}
}

// Dry runs beyond maxQuickStreams at once poll /jobs instead of opening a stream, so that a
// burst of previews cannot take every one of salt-api's threads.
func TestDryRunsBeyondTheStreamBoundPoll(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	got, polls, opened := planWith(t, func(_ *fakeSaltAPI, l *Layer) {
		for range maxQuickStreams {
			l.quick <- struct{}{}
		}
	})
	if got != polled || opened != 0 || len(polls) != 1 || polls[0] < 1 {
		t.Errorf("plan %q, %d streams, /jobs looks %v; want %q, no stream, polls", got, opened, polls, polled)
	}
	// The places come back when the streams close.
	_, _, opened = planWith(t, func(_ *fakeSaltAPI, l *Layer) {
		l.quick <- struct{}{}
		<-l.quick
	})
	if opened != 1 {
		t.Errorf("%d streams after a place was given back, want 1", opened)
	}
}

// A return event is taken only in the master's own shape, for the minion and job its tag
// names: a minion that fires another's return event (event.fire_master with the job's tag)
// does not put an empty return in that minion's place. The real return events come after the
// forged ones, so taking a forged one would change the plan.
func TestAForgedReturnEventIsNotTaken(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	got, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.forgeFrom = "node1" })
	if got != polled {
		t.Errorf("plan with forged return events %q, want %q", got, polled)
	}
}

// Minions return in whatever order they finish; the plan is the same whatever that order.
func TestADryRunsPlanDoesNotDependOnTheOrderMinionsReturn(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	got, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.reverseRets = true })
	if got != polled {
		t.Errorf("plan from returns in reverse order %q, want %q", got, polled)
	}
}

// By default a dry run opens no stream and takes its returns from /jobs, as an apply does:
// any minion can fire another's return event onto the master's bus, and /jobs holds only
// what each minion returned itself. Before, dry runs took return events unless told not to.
func TestDryRunsReadJobsByDefault(t *testing.T) {
	polled, _, _ := planWith(t, func(f *fakeSaltAPI, _ *Layer) { f.streaming = false })
	got, polls, opened := planWith(t, func(f *fakeSaltAPI, l *Layer) {
		d, err := New(Config{URL: f.srv.URL, Username: f.user, Password: f.password, Timeout: 5 * time.Second, PollInterval: 20 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		l.eventReturns = d.eventReturns // what a Config that says nothing gives
	})
	if got != polled || opened != 0 || len(polls) != 1 || polls[0] < 1 {
		t.Errorf("plan %q, %d streams, /jobs looks %v; want %q, no stream, polls", got, opened, polls, polled)
	}
}

// Units with the same targets resolve them with one test.ping, not one each: the answer is
// the same, and each ping is a job the master publishes to every minion. Units with other
// targets still get their own.
func TestUnitsWithTheSameTargetsShareOnePing(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2")
	f.run = unitStates("data-")
	spec := twoUnitSpec()
	third := spec.Units[1]
	third.Service = "lvm3"
	part := *third.Salt
	part.Targets = []string{"node2"}
	third.Salt = &part
	spec.Units = append(spec.Units, third)
	if _, err := newLayer(t, f, nil).Plan(context.Background(), spec); err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if want := []string{"list node1", "list node2"}; !slices.Equal(slices.Sorted(slices.Values(f.pings)), want) {
		t.Errorf("test.ping targets %v, want %v (one per distinct target)", f.pings, want)
	}
}

// At most maxDryRuns dry runs of a layer run at once; one beyond them waits for a place and
// gives up with its context, before asking the master anything.
func TestDryRunsBeyondTheBoundWaitForAPlace(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	for range maxDryRuns {
		l.dry <- struct{}{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := l.Plan(ctx, lvmSpec("node1"))
	if err == nil || !strings.Contains(err.Error(), "waiting for one of the 16 Salt dry runs") {
		t.Fatalf("Plan error = %v, want it to say it waited for a place", err)
	}
	f.mu.Lock()
	pings := len(f.pings)
	f.mu.Unlock()
	if pings != 0 {
		t.Errorf("%d test.pings sent without a place", pings)
	}
	<-l.dry
	if _, err := l.Plan(context.Background(), lvmSpec("node1")); err != nil {
		t.Errorf("Plan with a place free: %v", err)
	}
}
