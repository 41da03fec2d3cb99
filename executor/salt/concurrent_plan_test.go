package salt

import (
	"context"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// The units of one plan are dry-run side by side: here salt-api holds every look at a job
// until both units' test jobs were submitted, which one after another never happens (the
// second would wait for the first to end). The plan then lists both units, in the spec's order.
func TestUnitsAreDryRunSideBySide(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2")
	f.run = func(_ string, _ string, _ map[string]any, test bool) any { return lvmStates(test) }
	l := newLayer(t, f, nil)
	hold := make(chan struct{})
	both := make(chan struct{})
	submitted := 0
	f.mu.Lock()
	f.holdJobs = hold
	// Called (with mu held) as each test job is published: the second one releases the looks.
	f.lostSubmit = func(string) bool {
		if submitted++; submitted == 2 {
			f.holdJobs = nil
			close(both)
		}
		return false
	}
	f.mu.Unlock()
	spec := lvmSpec("node1")
	second := spec.Units[0]
	second.Service, second.Salt = "lvm2", &executor.SaltPart{State: "lvm.sls", Text: lvmText, Targets: []string{"node2"}, Pillar: spec.Units[0].Salt.Pillar}
	spec.Units = append(spec.Units, second)

	go func() {
		select {
		case <-both:
		case <-time.After(10 * time.Second): // one after another, the second never comes
			f.mu.Lock()
			f.holdJobs = nil
			f.mu.Unlock()
		}
		close(hold)
	}()
	start := time.Now()
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if time.Since(start) >= 10*time.Second {
		t.Fatalf("the second unit's test job was submitted only after the first ended: the units were dry-run one after another")
	}
	var units []string
	for _, c := range p.Changes {
		if len(units) == 0 || units[len(units)-1] != c.Unit {
			units = append(units, c.Unit)
		}
	}
	if len(units) != 2 || units[0] != "lvm" || units[1] != "lvm2" {
		t.Errorf("changes by unit %v, want lvm then lvm2", units)
	}
}
