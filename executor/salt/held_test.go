package salt

import (
	"context"
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
	res, err := l.Apply(context.Background(), lvmSpec("node1"), p, rec.report)
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
