package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

var alicePerson = WebPerson{Platform: "mattermost", UserID: "u-alice", Name: "alice"}

func addLink(t *testing.T, s *Store, hash string, ttl time.Duration) {
	t.Helper()
	if err := s.AddWebLink(context.Background(), hash, WebLink{Person: alicePerson, Created: t0, Expires: t0.Add(ttl)}); err != nil {
		t.Fatal(err)
	}
}

// A link signs in once: the first redeem returns its person, every later one ErrLinkUsed,
// a redeem at or after Expires ErrLinkExpired, and a hash naming no link ErrNotFound.
func TestWebLinkRedeemsOnce(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		addLink(t, s, "h1", 5*time.Minute)
		l, err := s.RedeemWebLink(context.Background(), "h1", t0.Add(time.Minute))
		if err != nil {
			t.Fatalf("first redeem: %v", err)
		}
		if l.Person != alicePerson || !l.Used.Equal(t0.Add(time.Minute)) {
			t.Fatalf("redeemed %+v, want alice used at t0+1m", l)
		}
		if _, err := s.RedeemWebLink(context.Background(), "h1", t0.Add(2*time.Minute)); !errors.Is(err, ErrLinkUsed) {
			t.Fatalf("second redeem: %v, want ErrLinkUsed", err)
		}

		addLink(t, s, "h2", 5*time.Minute)
		if _, err := s.RedeemWebLink(context.Background(), "h2", t0.Add(5*time.Minute)); !errors.Is(err, ErrLinkExpired) {
			t.Fatalf("redeem at Expires: %v, want ErrLinkExpired", err)
		}
		if _, err := s.RedeemWebLink(context.Background(), "h2", t0.Add(4*time.Minute)); err != nil {
			t.Fatalf("an expired attempt must not use the link up: %v", err)
		}
		if _, err := s.RedeemWebLink(context.Background(), "nope", t0); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown hash: %v, want ErrNotFound", err)
		}
	})
}

// Eight redeems of one link at once: exactly one wins, the others are told it was used.
func TestWebLinkConcurrentRedeem(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		addLink(t, s, "h", 5*time.Minute)
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = s.RedeemWebLink(context.Background(), "h", t0.Add(time.Second))
			}()
		}
		close(start)
		wg.Wait()
		won := 0
		for i, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrLinkUsed):
				t.Errorf("redeem %d: %v, want nil or ErrLinkUsed", i, err)
			}
		}
		if won != 1 {
			t.Fatalf("%d redeems won, want exactly 1", won)
		}
	})
}

// A session is valid until Expires (exclusive), then not found; EndWebSession ends it early.
func TestWebSessions(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		ws := WebSession{Person: alicePerson, Created: t0, Expires: t0.Add(8 * time.Hour)}
		for _, h := range []string{"s1", "s2"} {
			if err := s.AddWebSession(context.Background(), h, ws); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.WebSessionAt(context.Background(), "s1", t0.Add(8*time.Hour-time.Second))
		if err != nil || got.Person != alicePerson {
			t.Fatalf("session before expiry: %+v, %v", got, err)
		}
		if _, err := s.WebSessionAt(context.Background(), "s1", t0.Add(8*time.Hour)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("session at expiry: %v, want ErrNotFound", err)
		}
		if err := s.EndWebSession(context.Background(), "s2"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.WebSessionAt(context.Background(), "s2", t0); !errors.Is(err, ErrNotFound) {
			t.Fatalf("ended session: %v, want ErrNotFound", err)
		}
		if _, err := s.WebSessionAt(context.Background(), "s1", t0); err != nil {
			t.Fatalf("ending s2 ended s1 too: %v", err)
		}
	})
}

// PruneWeb removes the links and sessions expired at now, used or not, and keeps the rest.
func TestPruneWeb(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		now := t0.Add(time.Hour)
		for i, ttl := range []time.Duration{time.Minute, time.Hour, 2 * time.Hour} {
			addLink(t, s, fmt.Sprintf("l%d", i), ttl)
		}
		if _, err := s.RedeemWebLink(context.Background(), "l2", t0); err != nil { // used but not expired: kept
			t.Fatal(err)
		}
		for i, ttl := range []time.Duration{30 * time.Minute, 8 * time.Hour} {
			if err := s.AddWebSession(context.Background(), fmt.Sprintf("s%d", i), WebSession{Person: alicePerson, Created: t0, Expires: t0.Add(ttl)}); err != nil {
				t.Fatal(err)
			}
		}
		n, err := s.PruneWeb(context.Background(), now)
		if err != nil {
			t.Fatal(err)
		}
		if n != 3 {
			t.Fatalf("pruned %d, want 3 (links l0, l1 and session s0)", n)
		}
		for _, h := range []string{"l0", "l1"} {
			if _, err := s.RedeemWebLink(context.Background(), h, t0); !errors.Is(err, ErrNotFound) {
				t.Errorf("link %s after pruning: %v, want ErrNotFound", h, err)
			}
		}
		if _, err := s.RedeemWebLink(context.Background(), "l2", t0); !errors.Is(err, ErrLinkUsed) {
			t.Errorf("link l2 after pruning: %v, want ErrLinkUsed (kept)", err)
		}
		if _, err := s.WebSessionAt(context.Background(), "s1", now); err != nil {
			t.Errorf("session s1 after pruning: %v", err)
		}
		if _, err := s.WebSessionAt(context.Background(), "s0", t0); !errors.Is(err, ErrNotFound) {
			t.Errorf("session s0 after pruning: %v, want ErrNotFound", err)
		}
		if n, err := s.PruneWeb(context.Background(), now); err != nil || n != 0 {
			t.Fatalf("second prune: %d, %v, want 0", n, err)
		}
	})
}
