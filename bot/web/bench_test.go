package web

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/eosbot/eos/bot/store"
)

// What the overview costs the server with a store that has a history: 2,000 plans, of which
// 40 are pending (one in five in a channel the person may see; the rest are judged and left
// out) and the others expired long ago, and 200 finished runs. The figure is the whole HTTP
// round trip on loopback, rendering included.
func BenchmarkOverviewWith2000Plans(b *testing.B) {
	f := newFixture(b)
	for i := range 2000 {
		channel := "infra"
		if i%5 != 0 {
			channel = fmt.Sprintf("other-%d", i%7)
		}
		state := store.PlanExpired
		if i%50 == 0 {
			state = store.PlanPending
		}
		p := f.addPlan(fmt.Sprintf("%08x", i), channel, state)
		if i < 200 && state != store.PlanPending {
			f.startRun(p)
			if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunDone, nil, t0, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	c := f.signedIn()
	b.ResetTimer()
	for b.Loop() {
		if code, _ := f.get(c, "/"); code != http.StatusOK {
			b.Fatalf("overview: %d", code)
		}
	}
}

// The plan page of one plan among 1,000.
func BenchmarkPlanPage(b *testing.B) {
	f := newFixture(b)
	for i := range 1000 {
		f.addPlan(fmt.Sprintf("%08x", i), "infra", store.PlanPending)
	}
	c := f.signedIn()
	b.ResetTimer()
	for b.Loop() {
		if code, _ := f.get(c, "/plans/000001f4"); code != http.StatusOK {
			b.Fatalf("plan page: %d", code)
		}
	}
}
