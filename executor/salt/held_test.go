package salt

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// salt-api holds requests while its master is away: a look at /jobs that outlasts the
// client's timeout is retried like a refused one, not taken for the end of the run.
func TestApplyRetriesASaltAPIThatHoldsItsRequests(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	l.backoff = executor.Backoff{Min: 5 * time.Millisecond, Max: 50 * time.Millisecond}
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	l.api.http.Timeout = 100 * time.Millisecond
	hold := make(chan struct{})
	f.mu.Lock()
	f.holdJobs = hold
	f.mu.Unlock()
	var once sync.Once
	rec := &recorder{on: func(e executor.Event) {
		if strings.Contains(e.Message, "not answering") {
			once.Do(func() {
				f.mu.Lock()
				f.holdJobs = nil // the master is back
				f.mu.Unlock()
				close(hold)
			})
		}
	}}
	res, err := l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(rec.report, nil))
	if err != nil || res.Status != executor.ResultOK || res.Done != 4 {
		t.Fatalf("Apply = %+v, %v; want all 4 states applied after the held request", res, err)
	}
	if n := realApplies(f); n != 1 {
		t.Errorf("the job was submitted %d times, want once", n)
	}
	if notices := outageNotices(rec.all()); len(notices) == 0 {
		t.Errorf("events %+v, want a notice while salt-api held the request", rec.all())
	}
}

// After the master was away, a minion that no longer runs the job while its return never
// came ends the apply as unknown at once, rather than at the layer's timeout.
func TestApplyEndsUnknownWhenAMinionsReturnWasLostWithTheMaster(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	l.backoff = executor.Backoff{Min: 5 * time.Millisecond, Max: 50 * time.Millisecond}
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	l.timeout, l.waitNotice = time.Minute, 50*time.Millisecond
	var jid string
	f.mu.Lock()
	f.lostReturns = map[string]bool{"node1": true}
	f.onPoll = func(j string) bool {
		jid, f.masterDown, f.onPoll = j, true, nil // the master goes away as node1 returns
		return false
	}
	f.mu.Unlock()
	rec := &recorder{on: func(e executor.Event) {
		if strings.Contains(e.Message, "not answering") {
			f.mu.Lock()
			f.masterDown = false
			f.mu.Unlock()
		}
	}}
	start := time.Now()
	_, err = l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(rec.report, nil))
	var unknown *executor.UnknownError
	if !errors.As(err, &unknown) {
		t.Fatalf("Apply = %v, want an UnknownError", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if want := "minion node1 does not run job " + jid + ", and no return from it reached the master (lost while the master was away: the Salt master stopped answering"; !strings.HasPrefix(unknown.Err.Error(), want) ||
		unknown.Check != "salt-run jobs.lookup_jid "+jid {
		t.Errorf("unknown = %+v (%v), want %q", unknown, unknown.Err, want)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s, want it to end well before the layer's minute", took)
	}
}

// Without any outage Eos saw, a minion that says it does not run the job, while no return came,
// is unknown too (it may never have received the job); one that does not answer is still
// waited for until the timeout (TestApplyFailsOnAnUnreachableMinion).
func TestApplyEndsUnknownWhenAMinionNeitherRunsNorReturnedTheJob(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	l.timeout, l.waitNotice = time.Minute, 50*time.Millisecond
	f.mu.Lock()
	f.lostReturns = map[string]bool{"node1": true}
	f.mu.Unlock()
	_, err = l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(nil, nil))
	var unknown *executor.UnknownError
	if !errors.As(err, &unknown) || !strings.HasSuffix(unknown.Err.Error(), "(lost while the master was away, or the job never reached the minion)") {
		t.Fatalf("Apply = %v, want an UnknownError saying the return may be lost or the job never arrived", err)
	}
}

// A minion heard running the job (its states came through the stream) that has not returned
// at the timeout may have applied them: the apply's end is unknown, not failed.
func TestApplyEndsUnknownWhenAMinionHeardRunningTheJobDoesNotReturn(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.streaming = true
	f.beforeReturn = make(chan struct{}) // never closed: the return never comes
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return threeStates(test, false) }
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	l.timeout = 300 * time.Millisecond
	rec := &recorder{}
	res, err := l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(rec.report, nil))
	var unknown *executor.UnknownError
	if !errors.As(err, &unknown) || !strings.Contains(unknown.Err.Error(), "had not returned job") ||
		!strings.HasSuffix(unknown.Err.Error(), "within 300ms, and it was running the job: still running, or its return was lost") {
		t.Fatalf("Apply = %v, want an UnknownError for a minion heard running the job", err)
	}
	if res.Status != executor.ResultUnknown || res.Done == 0 {
		t.Errorf("result %+v, want unknown after the streamed states", res)
	}
}
