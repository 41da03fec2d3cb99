package salt

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The test job goes out only once test.ping has answered, even for targets that list their
// minions: a minion drops one of two jobs published to it at the same moment (Salt's "invalid
// serial", saltstack/salt#63217). Here the ping is held for a second; a test job that came
// meanwhile would have gone out beside it.
func TestTheTestJobWaitsForThePing(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2")
	hold := make(chan struct{})
	beside := make(chan struct{})
	f.run = func(_ string, _ string, _ map[string]any, test bool) any {
		if test && f.holdPing != nil { // called with mu held, as the test job is published
			f.holdPing = nil
			close(beside)
		}
		return lvmStates(test)
	}
	f.mu.Lock()
	f.holdPing = hold
	f.mu.Unlock()
	went := make(chan bool, 1)
	go func() {
		select {
		case <-beside:
			went <- true
		case <-time.After(time.Second): // no test job while the ping was held
			f.mu.Lock()
			f.holdPing = nil
			f.mu.Unlock()
			went <- false
		}
		close(hold)
	}()
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), lvmSpec("node2", "node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if <-went {
		t.Fatal("the test job was published while test.ping had not answered")
	}
	if f.pingsSent() != 1 || !strings.Contains(p.Digest, " list node1,node2 ") {
		t.Errorf("%d pings, digest %q; want one ping and the plan on node1,node2", f.pingsSent(), p.Digest)
	}
	if c := f.applyCalls(); len(c) != 1 || c[0].Tgt != "node1,node2" || c[0].TgtType != "list" || !c[0].Test {
		t.Errorf("state runs %+v, want one test run on the list node1,node2", c)
	}
}

// A listed minion that does not answer the ping fails the plan with the ping's reason at once,
// with no test job to wait for (its minion would never return it, and the layer would wait its
// whole timeout).
func TestListedMinionDownFailsThePlanWithThePing(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	f.down["node2"] = true
	l := newLayer(t, f, nil)
	l.timeout = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := l.Plan(ctx, lvmSpec("node1", "node2"))
	if err == nil || !strings.Contains(err.Error(), "minion node2 did not answer test.ping") {
		t.Fatalf("Plan = %v, want node2's ping named", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the plan waited for a test job on a minion that did not answer the ping")
	}
}

// pingsSent is how many test.pings the fake answered.
func (f *fakeSaltAPI) pingsSent() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.pings)
}

// A job's event stream opens while its state files are written, for a unit's run (here a dry
// run of one unit, and its apply) as for a combined dry run: the master answers the write only
// once a stream is open, which one after the other never happens.
func TestTheStreamOpensWhileTheStateIsWritten(t *testing.T) {
	for _, tt := range []struct {
		name  string
		units int
	}{{"one unit", 1}, {"combined", 2}} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSaltAPI(t, "node1")
			f.streaming = true
			f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
			l := newLayer(t, f, nil)
			spec := lvmSpec("node1")
			if tt.units == 2 {
				second := spec.Units[0]
				second.Service = "lvm2"
				spec.Units = append(spec.Units, second)
			}
			hold := make(chan struct{})
			f.mu.Lock()
			f.holdWrite = hold
			f.mu.Unlock()
			waited := make(chan bool, 1)
			go func() {
				deadline := time.Now().Add(5 * time.Second)
				for {
					f.mu.Lock()
					opened := f.opened
					f.mu.Unlock()
					if opened > 0 || time.Now().After(deadline) {
						waited <- opened == 0
						f.mu.Lock()
						f.holdWrite = nil
						f.mu.Unlock()
						close(hold)
						return
					}
					time.Sleep(time.Millisecond)
				}
			}()
			if _, err := l.Plan(context.Background(), spec); err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if <-waited {
				t.Fatal("the event stream was opened only after the state file was written")
			}
		})
	}
}

// waitOn lets go of mu until hold is closed (nil: not at all); called with mu held.
func (f *fakeSaltAPI) waitOn(hold chan struct{}) {
	if hold == nil {
		return
	}
	f.mu.Unlock()
	<-hold
	f.mu.Lock()
}
