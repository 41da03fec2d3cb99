package web

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/eosbot/eos/bot/store"
)

// What a page costs the server with a store of some size: 1,000 pending plans, one in five
// in a channel the person may see (the rest are judged and left out), and 200 finished runs.
// The figure is the whole HTTP round trip on loopback, rendering included.
func BenchmarkOverviewWith1000Plans(b *testing.B) {
	f := newFixture(b)
	for i := range 1000 {
		channel := "infra"
		if i%5 != 0 {
			channel = fmt.Sprintf("other-%d", i%7)
		}
		p := f.addPlan(fmt.Sprintf("%08x", i), channel, store.PlanPending)
		if i < 200 {
			f.startRun(p)
			if _, err := f.st.FinishRun(p.ID, store.RunDone, nil, t0, nil); err != nil {
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
