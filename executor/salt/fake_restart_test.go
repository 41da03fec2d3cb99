package salt

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// restartLayer is a layer on the front that retries quickly.
func restartLayer(t *testing.T, f *fakeSaltAPI, a *apiFront) *Layer {
	l := newLayer(t, f, nil)
	l.api.base.Host = a.addr
	l.backoff = executor.Backoff{Min: 5 * time.Millisecond, Max: 50 * time.Millisecond}
	return l
}

// realApplies are the jobs the fake started for real (not test=True).
func realApplies(f *fakeSaltAPI) int {
	n := 0
	for _, c := range f.applyCalls() {
		if !c.Test {
			n++
		}
	}
	return n
}

// outageNotices are the notices among events.
func outageNotices(evs []executor.Event) []executor.Event {
	var out []executor.Event
	for _, e := range evs {
		if e.Resource == "" && strings.Contains(e.Message, "not answering") {
			out = append(out, e)
		}
	}
	return out
}

// applyThroughRestart plans, then applies while salt-api goes away at the moment fault
// chooses (fault is installed after the plan and must stop or refuse the front); salt-api
// comes back once the layer has told the progress it is retrying. It returns the result,
// the error and the events.
func applyThroughRestart(t *testing.T, streaming bool, fault func(f *fakeSaltAPI, a *apiFront)) (executor.LayerResult, error, []executor.Event, *fakeSaltAPI) {
	t.Helper()
	f := newFakeSaltAPI(t, "node1")
	f.streaming = streaming
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	a := newAPIFront(t, f)
	l := restartLayer(t, f, a)
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	fault(f, a)
	if streaming {
		// The minion has not returned when salt-api goes away: its return event is held, and
		// the layer's next look at /jobs (every 20 ms here instead of 30 s) meets the fault.
		f.beforeReturn = make(chan struct{})
		l.safety = 20 * time.Millisecond
	}
	f.mu.Unlock()
	noticed := make(chan struct{})
	var once sync.Once
	rec := &recorder{on: func(e executor.Event) {
		if strings.Contains(e.Message, "not answering") {
			once.Do(func() { close(noticed) })
		}
	}}
	type result struct {
		res executor.LayerResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(rec.report, nil))
		done <- result{res, err}
	}()
	select {
	case <-noticed:
		a.start()
	case r := <-done:
		t.Fatalf("Apply ended (%+v, %v) without saying it was retrying; events %+v", r.res, r.err, rec.all())
	case <-time.After(10 * time.Second):
		t.Fatal("no notice within 10s")
	}
	r := <-done
	return r.res, r.err, rec.all(), f
}

func TestApplyFollowsItsJobThroughASaltAPIRestart(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		t.Run(map[bool]string{false: "polling", true: "streaming"}[streaming], func(t *testing.T) {
			polls := 0
			res, err, evs, f := applyThroughRestart(t, streaming, func(f *fakeSaltAPI, a *apiFront) {
				f.onPoll = func(string) bool {
					if polls++; polls == 1 {
						a.stop() // salt-api dies while the job runs: this look at /jobs is cut too
						return true
					}
					return false
				}
			})
			if err != nil || res.Status != executor.ResultOK || res.Done != 4 {
				t.Fatalf("Apply = %+v, %v; want all 4 states applied", res, err)
			}
			if n := realApplies(f); n != 1 {
				t.Errorf("the job was submitted %d times, want once", n)
			}
			notices := outageNotices(evs)
			if len(notices) == 0 || notices[0].Message != "salt-api not answering, retrying" || notices[0].Layer != executor.Salt {
				t.Errorf("notices %+v, want the first to say salt-api is not answering", notices)
			}
			back := false
			for _, e := range evs {
				back = back || e.Resource == "" && e.Message == "salt-api answering again"
			}
			if !back {
				t.Errorf("events %+v, want one saying salt-api answers again", evs)
			}
			f.mu.Lock()
			logins := f.logins
			f.mu.Unlock()
			if logins < 2 {
				t.Errorf("%d logins; the restarted salt-api forgot the token, so the layer must log in again", logins)
			}
		})
	}
}

func TestApplyResubmitsOnlyAJobSaltAPINeverReceived(t *testing.T) {
	res, err, evs, f := applyThroughRestart(t, false, func(f *fakeSaltAPI, a *apiFront) {
		// salt-api goes away right after the state file was written: the submission's
		// connection is refused, so it certainly was not taken and is sent again.
		f.afterWrite = func() { a.refuse(); f.afterWrite = nil }
	})
	if err != nil || res.Status != executor.ResultOK || res.Done != 4 {
		t.Fatalf("Apply = %+v, %v; want all 4 states applied", res, err)
	}
	if n := realApplies(f); n != 1 {
		t.Errorf("the job was submitted %d times, want once", n)
	}
	if len(outageNotices(evs)) == 0 {
		t.Errorf("events %+v, want a notice", evs)
	}
}

func TestApplyLooksForAJobWhoseSubmissionAnswerWasLost(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	logs := &syncBuffer{}
	l := newLayer(t, f, logs)
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var cut string
	f.mu.Lock()
	f.lostSubmit = func(jid string) bool {
		if cut == "" {
			cut = jid // the master took the job; its answer is lost on the way
			return true
		}
		return false
	}
	f.mu.Unlock()
	res, err := l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(nil, nil))
	if err != nil || res.Status != executor.ResultOK || res.Done != 4 {
		t.Fatalf("Apply = %+v, %v; want all 4 states applied", res, err)
	}
	if n := realApplies(f); n != 1 {
		t.Errorf("the job was submitted %d times, want once: it had been taken", n)
	}
	if !strings.Contains(logs.String(), "looking for the job") || !strings.Contains(logs.String(), "jid="+cut) {
		t.Errorf("want the lost answer logged and job %s followed; logs:\n%s", cut, logs.String())
	}
}

func TestApplyWhoseSaltAPINeverComesBackIsUnknown(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	a := newAPIFront(t, f)
	l := restartLayer(t, f, a)
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	var jid string
	f.mu.Lock()
	f.onPoll = func(j string) bool {
		jid = j
		a.stop()
		return true
	}
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // the runner's layer timeout
	defer cancel()
	rec := &recorder{}
	res, err := l.Apply(ctx, lvmSpec("node1"), p, executor.Observe(rec.report, nil))
	var unknown *executor.UnknownError
	if !errors.As(err, &unknown) {
		t.Fatalf("Apply = %+v, %v; want an UnknownError", res, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if unknown.Check != "salt-run jobs.lookup_jid "+jid || unknown.Applied != "the 4 states of job "+jid+" on node1" {
		t.Errorf("unknown = %+v, want job %s named with its check", unknown, jid)
	}
	if !strings.HasPrefix(unknown.Err.Error(), "salt-api not answering for ") || !strings.Contains(unknown.Err.Error(), "connection refused") {
		t.Errorf("why = %q, want salt-api named as not answering", unknown.Err)
	}
	if res.Status != executor.ResultUnknown || res.Failed != nil || res.Check != unknown.Check {
		t.Errorf("result %+v, want unknown, nothing failed", res)
	}
	if len(outageNotices(rec.all())) == 0 {
		t.Errorf("events %+v, want a notice while retrying", rec.all())
	}
}

func TestApplyWaitsForARestartingMasterAndSaysSo(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	l.backoff = executor.Backoff{Min: 5 * time.Millisecond, Max: 50 * time.Millisecond}
	p, err := l.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	f.onPoll = func(string) bool {
		f.masterDown, f.onPoll = true, nil // the master goes down while the job runs
		return false
	}
	f.mu.Unlock()
	rec := &recorder{on: func(e executor.Event) {
		if strings.Contains(e.Message, "not answering") {
			f.mu.Lock()
			f.masterDown = false // and comes back
			f.mu.Unlock()
		}
	}}
	res, err := l.Apply(context.Background(), lvmSpec("node1"), p, executor.Observe(rec.report, nil))
	if err != nil || res.Status != executor.ResultOK || res.Done != 4 {
		t.Fatalf("Apply = %+v, %v; want all 4 states applied", res, err)
	}
	notices := outageNotices(rec.all())
	if len(notices) != 1 || notices[0].Message != "the Salt master not answering, retrying" {
		t.Errorf("notices %+v, want one naming the Salt master", notices)
	}
	if n := realApplies(f); n != 1 {
		t.Errorf("the job was submitted %d times, want once", n)
	}
}

func TestApplySaysWhichMinionItWaitsForOnceTheStreamBroke(t *testing.T) {
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
	f.dropAfter = 2 // the stream breaks after node1's first state
	f.mu.Unlock()
	l.timeout, l.waitNotice = time.Second, 100*time.Millisecond
	rec := &recorder{}
	_, err = l.Apply(context.Background(), lvmSpec("node1", "node2"), p, executor.Observe(rec.report, nil))
	if err == nil || !strings.Contains(err.Error(), "minion node2 did not return within 1s") {
		t.Fatalf("Apply error = %v, want node2 named as not returning", err)
	}
	var waits []executor.Event
	for _, e := range rec.all() {
		if strings.HasPrefix(e.Message, "waiting for ") {
			waits = append(waits, e)
		}
	}
	if len(waits) == 0 || !regexp.MustCompile(`^waiting for node2 to return job \d{20} \(\d+ s\)$`).MatchString(waits[0].Message) ||
		waits[0].Resource != "" || waits[0].Total != 8 {
		t.Errorf("waits %+v, want node2 named with its job and the plan's total", waits)
	}
}

// Through the runner, the layer's timeout is the context's deadline: an apply whose salt-api
// does not come back by then is unknown, and nothing is rolled back, although a previous spec
// would let the layer re-apply it.
func TestRunnerNeitherRollsBackNorCallsAppliedAJobItLostSightOf(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	a := newAPIFront(t, f)
	l := restartLayer(t, f, a)
	l.timeout = time.Minute // longer than the runner's: its deadline ends the wait
	runner, err := executor.NewRunner(executor.RunnerConfig{Layers: []executor.Layer{l}, LayerTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := runner.Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	f.mu.Lock()
	f.onPoll = func(string) bool {
		a.stop()
		return true
	}
	f.mu.Unlock()
	previous := lvmSpec("node1")
	res := runner.Apply(context.Background(), plan, &previous, executor.Observe(func(executor.Event) {}, nil))
	if len(res.Layers) == 0 {
		t.Fatalf("result %+v has no layers", res)
	}
	lr := res.Layers[0]
	t.Logf("layer result: %s", lr.Error)
	if !res.Unknown || lr.Status != executor.ResultUnknown || !strings.HasPrefix(lr.Check, "salt-run jobs.lookup_jid ") ||
		lr.Rollback != "nothing was rolled back: Eos did not see how it ended" || lr.RolledBack {
		t.Errorf("result %+v, layer %+v; want unknown with its check, nothing rolled back", res, lr)
	}
	if !strings.Contains(lr.Error, "salt-api not answering for ") || !strings.Contains(lr.Error, "may have been applied") {
		t.Errorf("error %q, want what stopped answering and what may have been applied", lr.Error)
	}
	if n := realApplies(f); n != 1 {
		t.Errorf("%d real applies, want the one job only", n)
	}
}
