package leader

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store/pgtest"
)

// Five electors campaign at once; each leads once, for a couple of heartbeats, then resigns.
// At no moment may two of them hold a term.
func TestFiveElectorsLeadOneAtATime(t *testing.T) {
	const n = 5
	dsn := pgtest.Database(t)
	electors := make([]*Elector, n)
	for i := range electors {
		electors[i], _ = newElector(t, dsn, fmt.Sprint("e", i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()

	var (
		leaders atomic.Int32 // electors holding a term right now
		led     atomic.Int32 // electors that have led
		wg      sync.WaitGroup
	)
	for i, e := range electors {
		wg.Go(func() {
			term, err := e.Campaign(ctx)
			if err != nil {
				t.Errorf("e%d: campaign: %v", i, err)
				return
			}
			if now := leaders.Add(1); now != 1 {
				t.Errorf("e%d leads while %d others do", i, now-1)
			}
			if err := term.Valid(); err != nil || e.Role() != RoleLeader {
				t.Errorf("e%d's new term: Valid = %v, role %s", i, err, e.Role())
			}
			select { // lead across two heartbeats
			case <-term.Done():
				t.Errorf("e%d lost its term: %v", i, term.Err())
			case <-time.After(2 * testHeartbeat):
			}
			leaders.Add(-1)
			led.Add(1)
			term.Resign()
		})
	}
	wg.Wait()
	if got := led.Load(); got != n {
		t.Fatalf("%d of %d electors led", got, n)
	}
}
