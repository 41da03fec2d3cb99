package store

import (
	"context"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

// A request's plans are found by its post, oldest first, on both backends and after a reopen;
// another post (even one whose id starts alike) finds none.
func TestPlansByRequest(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		s, reopen := open(t)
		req := adapters.PostRef{Platform: "mattermost", Channel: "c1", ID: "p4"}
		first, second, other := samplePlan("aaaa0001"), samplePlan("aaaa0002"), samplePlan("aaaa0003")
		first.Request, second.Request = req, req
		second.Created = first.Created.Add(time.Minute)
		other.Request = adapters.PostRef{Platform: "mattermost", Channel: "c1", ID: "p45"}
		for _, p := range []*Plan{second, other, first} {
			if err := s.CreatePlan(context.Background(), p); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()
		s, err := reopen()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		got, err := s.PlansByRequest(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].ID != first.ID || got[1].ID != second.ID {
			t.Fatalf("PlansByRequest = %v, want [%s %s]", ids(got), first.ID, second.ID)
		}
		none, err := s.PlansByRequest(context.Background(), adapters.PostRef{Platform: "mattermost", Channel: "c1", ID: "p"})
		if err != nil || len(none) != 0 {
			t.Fatalf("PlansByRequest(p) = %v, %v; want none", ids(none), err)
		}
	})
}

func ids(ps []*Plan) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}
