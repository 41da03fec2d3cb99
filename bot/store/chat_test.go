package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestCursorNeverMovesBackwards(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		if _, ok, err := s.Cursor(ctx, "mattermost", "c1"); ok || err != nil {
			t.Fatalf("cursor of a channel never read: ok=%v err=%v", ok, err)
		}
		for _, at := range []time.Time{t0.Add(time.Minute), t0} {
			if err := s.SetCursor(ctx, "mattermost", "c1", at); err != nil {
				t.Fatal(err)
			}
		}
		at, ok, err := s.Cursor(ctx, "mattermost", "c1")
		if !ok || err != nil || !at.Equal(t0.Add(time.Minute)) {
			t.Fatalf("cursor = %v, %v, %v; want %v", at, ok, err, t0.Add(time.Minute))
		}
		if _, ok, _ := s.Cursor(ctx, "mattermost", "c2"); ok {
			t.Fatal("a cursor of one channel answered for another")
		}
	})
}

// A message delivered to many handlers at once (a redelivery racing the original) is
// claimed by exactly one; the same id posted at another time is another message.
func TestClaimMessageOnce(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		var wins atomic.Int32
		var wg sync.WaitGroup
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				first, err := s.ClaimMessage(context.Background(), "mattermost", "c1", "p1", t0, t0)
				if err != nil {
					t.Error(err)
				}
				if first {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d claims of one message succeeded, want 1", wins.Load())
		}
		if first, _ := s.ClaimMessage(context.Background(), "console", "local", "p1", t0.Add(time.Hour), t0); !first {
			t.Fatal("a console message reusing an id at another time was taken for a repeat")
		}
		if n, err := s.PruneMessages(context.Background(), t0.Add(time.Second)); err != nil || n != 2 {
			t.Fatalf("PruneMessages = %d, %v; want 2", n, err)
		}
		if first, _ := s.ClaimMessage(context.Background(), "mattermost", "c1", "p1", t0, t0); !first {
			t.Fatal("a pruned claim still blocks")
		}
	})
}
