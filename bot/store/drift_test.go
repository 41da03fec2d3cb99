package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

// A digest post yields one live claim at a time: while its plan is being made (until it
// goes stale) or waits for approval; after that, a new 🔧 may claim it again.
func TestClaimDigestPost(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		const stale = 10 * time.Minute
		reply := adapters.PostRef{Platform: "console", Channel: "local", ID: "9", Thread: "7"}
		for _, tc := range []struct {
			name string
			// before is what happened to the post before the claim under test, at t0.
			before   func(t *testing.T, s *Store)
			at       time.Time
			wantLive string // the live claim's user, "" when the claim succeeds
		}{
			{"first claim", func(*testing.T, *Store) {}, t0, ""},
			{"being planned", claim("alice", ""), t0.Add(time.Minute), "alice"},
			{"planning went stale", claim("alice", ""), t0.Add(stale), ""},
			{"released: no plan was made", claim("alice", "-"), t0.Add(time.Second), ""},
			{"plan pending", claim("alice", "7f3a9c21"), t0.Add(time.Hour), "alice"},
			{"plan rejected", func(t *testing.T, s *Store) {
				claim("alice", "7f3a9c21")(t, s)
				if _, err := s.UpdatePlan(context.Background(), "7f3a9c21", func(p *Plan) error { p.State = PlanRejected; return nil }); err != nil {
					t.Fatal(err)
				}
			}, t0.Add(time.Minute), ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s, _ := open(t)
				if err := s.AddDigestPosts(context.Background(), DigestPost{Post: reply, Digest: "daily", Keys: []string{"local/grafana"}, At: t0}); err != nil {
					t.Fatal(err)
				}
				tc.before(t, s)
				live, err := s.ClaimDigestPost(context.Background(), reply, "bob", tc.at, stale)
				if err != nil {
					t.Fatal(err)
				}
				got := ""
				if live != nil {
					got = live.User
				}
				if got != tc.wantLive {
					t.Fatalf("live claim by %q, want %q", got, tc.wantLive)
				}
				dp, err := s.DigestPost(context.Background(), reply)
				if err != nil {
					t.Fatal(err)
				}
				holder := tc.wantLive
				if holder == "" {
					holder = "bob"
				}
				if dp.Claim == nil || dp.Claim.User != holder {
					t.Errorf("claim = %+v, want held by %s", dp.Claim, holder)
				}
			})
		}
	})
}

// claim makes alice's claim at t0 and records its plan: "" leaves it being planned, "-"
// releases it, an id stores a pending plan of that id and records it.
func claim(user, planID string) func(t *testing.T, s *Store) {
	return func(t *testing.T, s *Store) {
		t.Helper()
		ref := adapters.PostRef{Platform: "console", Channel: "local", ID: "9", Thread: "7"}
		if live, err := s.ClaimDigestPost(context.Background(), ref, user, t0, time.Minute); err != nil || live != nil {
			t.Fatalf("claim = %+v, %v", live, err)
		}
		switch planID {
		case "":
			return
		case "-":
			planID = ""
		default:
			if err := s.CreatePlan(context.Background(), samplePlan(planID)); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SetClaimPlan(context.Background(), ref, user, planID); err != nil {
			t.Fatal(err)
		}
	}
}

// Of many 🔧 delivered at once, exactly one claims the post; a headline's hint is given once.
// Many goroutines claim and hint the same posts at once, round after round: on PostgreSQL
// they collide and transactions are retried, and a retried one must not keep a result from
// the attempt that failed (one claim and one hint per post, never two).
func TestDigestPostConcurrentClaimsAndHint(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		for round := range 10 {
			head := adapters.PostRef{Platform: "console", Channel: "local", ID: fmt.Sprintf("h%d", round)}
			reply := adapters.PostRef{Platform: "console", Channel: "local", ID: fmt.Sprintf("r%d", round), Thread: head.ID}
			if err := s.AddDigestPosts(context.Background(), DigestPost{Post: head, Keys: []string{"local/grafana", "local/jenkins"}},
				DigestPost{Post: reply, Keys: []string{"local/grafana"}}); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			claimed, hinted := 0, 0
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					live, err := s.ClaimDigestPost(context.Background(), reply, "alice", t0, time.Minute)
					first, herr := s.MarkHinted(context.Background(), head)
					mu.Lock()
					defer mu.Unlock()
					if err == nil && live == nil {
						claimed++
					}
					if herr == nil && first {
						hinted++
					}
				}()
			}
			wg.Wait()
			if claimed != 1 || hinted != 1 {
				t.Errorf("round %d: %d claims and %d hints succeeded, want 1 and 1", round, claimed, hinted)
			}
		}
		if _, err := s.DigestPost(context.Background(), adapters.PostRef{Platform: "console", Channel: "local", ID: "8"}); !errors.Is(err, ErrNotFound) {
			t.Errorf("a post no digest made: err = %v, want ErrNotFound", err)
		}
	})
}
