package runwatch

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// at is the test clock's start.
var at = time.Date(2026, 11, 23, 14, 2, 0, 0, time.UTC)

func line(i int) RunUpdate {
	return RunUpdate{Layer: executor.Terraform, Line: fmt.Sprintf("line %d", i)}
}

// drain reads ch until it is closed; it fails the test if that takes long.
func drain(t *testing.T, ch <-chan RunUpdate) []RunUpdate {
	t.Helper()
	var out []RunUpdate
	deadline := time.After(10 * time.Second)
	for {
		select {
		case u, ok := <-ch:
			if !ok {
				return out
			}
			out = append(out, u)
		case <-deadline:
			t.Fatalf("the channel was not closed; got %d updates", len(out))
		}
	}
}

func lines(us []RunUpdate) []string {
	var out []string
	for _, u := range us {
		switch {
		case u.Finished:
			out = append(out, "finished")
		default:
			out = append(out, u.Line)
		}
	}
	return out
}

// A watcher from the start gets everything live; one that comes mid-run gets what happened
// as its past and the rest live; both end with Finished and a closed channel.
func TestWatchBeforeAndDuringRun(t *testing.T) {
	clock := &testClock{now: at}
	h := NewHub(clock.Now)
	h.Begin("r1")
	past1, live1, stop1 := h.Watch("r1")
	defer stop1()
	if len(past1) != 0 {
		t.Fatalf("past before anything happened: %v", past1)
	}
	for i := range 3 {
		h.Publish("r1", line(i))
	}
	past2, live2, stop2 := h.Watch("r1")
	defer stop2()
	h.Publish("r1", line(3))
	h.Publish("r1", RunUpdate{Finished: true})

	if got := fmt.Sprint(lines(drain(t, live1))); got != "[line 0 line 1 line 2 line 3 finished]" {
		t.Errorf("the first watcher got %s", got)
	}
	if got := fmt.Sprint(lines(past2)); got != "[line 0 line 1 line 2]" {
		t.Errorf("the second watcher's past is %s", got)
	}
	if got := fmt.Sprint(lines(drain(t, live2))); got != "[line 3 finished]" {
		t.Errorf("the second watcher got %s live", got)
	}
	for _, u := range past2 {
		if !u.Time.Equal(at) {
			t.Errorf("update %q has time %v, want the engine clock's %v", u.Line, u.Time, at)
		}
	}
}

// A watcher that never reads does not hold the run up: publishing goes on, the watcher gets
// what fits, then the Finished update saying how many it missed.
func TestWatchBlockedWatcherDoesNotSlowTheRun(t *testing.T) {
	h := NewHub((&testClock{now: at}).Now)
	h.Begin("r1")
	_, stuck, stopStuck := h.Watch("r1")
	defer stopStuck()
	_, reader, stopReader := h.Watch("r1")
	defer stopReader()
	const n = 3 * watchBuffer
	read := make(chan []RunUpdate)
	go func() {
		var all []RunUpdate
		for u := range reader {
			all = append(all, u)
		}
		read <- all
	}()

	published := make(chan struct{})
	go func() {
		for i := range n {
			h.Publish("r1", line(i))
		}
		h.Publish("r1", RunUpdate{Finished: true})
		close(published)
	}()
	select {
	case <-published:
	case <-time.After(10 * time.Second):
		t.Fatal("publishing blocked on a watcher that does not read")
	}

	got := drain(t, stuck)
	if len(got) != watchBuffer {
		t.Fatalf("the stuck watcher got %d updates, want %d (its buffer)", len(got), watchBuffer)
	}
	last := got[len(got)-1]
	if !last.Finished || last.Missed != n-(watchBuffer-1) {
		t.Errorf("the stuck watcher's last update is %+v, want Finished having missed %d", last, n-(watchBuffer-1))
	}
	// The reader may also have missed some, but whatever it got is in order and adds up.
	all := <-read
	if !all[len(all)-1].Finished {
		t.Errorf("the reader's last update is not Finished: %+v", all[len(all)-1])
	}
	total := 0
	for _, u := range all {
		total += 1 + u.Missed
	}
	if total != n+1 {
		t.Errorf("the reader got %d updates and was told of the missed ones to a total of %d, want %d", len(all), total, n+1)
	}
}

// A watcher that missed updates and then reads again is told, on the next update it gets,
// how many it missed.
func TestWatchMissedIsReportedOnce(t *testing.T) {
	h := NewHub((&testClock{now: at}).Now)
	h.Begin("r1")
	_, live, stop := h.Watch("r1")
	defer stop()
	for i := range watchBuffer + 9 { // cap-1 fit, 10 are missed
		h.Publish("r1", line(i))
	}
	for range watchBuffer - 1 {
		if u := <-live; u.Missed != 0 {
			t.Fatalf("an update before the drop says %d missed", u.Missed)
		}
	}
	h.Publish("r1", line(1000))
	h.Publish("r1", line(1001))
	if u := <-live; u.Line != "line 1000" || u.Missed != 10 {
		t.Errorf("after the drop: %+v, want line 1000 with 10 missed", u)
	}
	if u := <-live; u.Missed != 0 {
		t.Errorf("the next update says %d missed again", u.Missed)
	}
}

// stop unsubscribes: the channel is closed, later updates go nowhere, stopping twice is fine.
func TestWatchStopUnsubscribes(t *testing.T) {
	h := NewHub((&testClock{now: at}).Now)
	h.Begin("r1")
	_, live, stop := h.Watch("r1")
	h.Publish("r1", line(0))
	stop()
	stop()
	if got := lines(drain(t, live)); fmt.Sprint(got) != "[line 0]" {
		t.Errorf("after stop the channel held %v", got)
	}
	h.Publish("r1", line(1))
	h.Publish("r1", RunUpdate{Finished: true})
	h.mu.Lock()
	subs := len(h.runs["r1"].subs)
	h.mu.Unlock()
	if subs != 0 {
		t.Errorf("%d watchers left after stop", subs)
	}
}

// A run not known here: nil past, and a channel that only stop closes.
func TestWatchUnknownRun(t *testing.T) {
	h := NewHub((&testClock{now: at}).Now)
	h.Publish("elsewhere", line(0)) // not begun here: dropped
	past, live, stop := h.Watch("elsewhere")
	if past != nil {
		t.Errorf("past of an unknown run: %v", past)
	}
	select {
	case u, ok := <-live:
		t.Fatalf("the channel of an unknown run gave %+v (open %v) before stop", u, ok)
	default:
	}
	stop()
	if _, ok := <-live; ok {
		t.Fatal("stop did not close the channel")
	}
}

// A page gets the last 2000 updates as its past; a finished run stays 10 minutes, then goes.
func TestWatchKeepsTheLastUpdatesAndForgets(t *testing.T) {
	clock := &testClock{now: at}
	h := NewHub(clock.Now)
	h.Begin("r1")
	for i := range 5000 {
		h.Publish("r1", line(i))
	}
	past, _, stop := h.Watch("r1")
	stop()
	if len(past) != watchKeep || past[0].Line != "line 3000" || past[len(past)-1].Line != "line 4999" {
		t.Fatalf("past has %d updates from %q to %q, want the last %d", len(past), past[0].Line, past[len(past)-1].Line, watchKeep)
	}
	h.Publish("r1", RunUpdate{Finished: true})

	clock.Advance(watchLinger - time.Second)
	past, live, stop := h.Watch("r1")
	defer stop()
	if len(past) != watchKeep || !past[len(past)-1].Finished {
		t.Errorf("just before 10 minutes the finished run's past has %d updates, last %+v", len(past), past[len(past)-1])
	}
	if _, ok := <-live; ok {
		t.Error("a finished run's live channel is open")
	}
	clock.Advance(time.Second)
	if past, _, stop := h.Watch("r1"); past != nil {
		stop()
		t.Errorf("10 minutes after it finished the run still has %d updates", len(past))
	} else {
		stop()
	}
}
