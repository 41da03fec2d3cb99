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

// A request's plans are found by its platform and post id alone, whatever its channel (a
// Discord thread knows the request's id, not its channel); a post whose id starts or ends
// alike, or another platform's post with the same id, finds none.
func TestPlansByRequestID(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		mine, alike, elsewhere := samplePlan("bbbb0001"), samplePlan("bbbb0002"), samplePlan("bbbb0003")
		mine.Request = adapters.PostRef{Platform: "discord", Channel: "c1", ID: "900"}
		alike.Request = adapters.PostRef{Platform: "discord", Channel: "900", ID: "9001"}
		elsewhere.Request = adapters.PostRef{Platform: "slack", Channel: "c1", ID: "900"}
		for _, p := range []*Plan{mine, alike, elsewhere} {
			if err := s.CreatePlan(context.Background(), p); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.PlansByRequestID(context.Background(), "discord", "900")
		if err != nil || len(got) != 1 || got[0].ID != mine.ID {
			t.Fatalf("PlansByRequestID(discord, 900) = %v, %v; want [%s]", ids(got), err, mine.ID)
		}
		if none, err := s.PlansByRequestID(context.Background(), "discord", "90"); err != nil || len(none) != 0 {
			t.Fatalf("PlansByRequestID(discord, 90) = %v, %v; want none", ids(none), err)
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
