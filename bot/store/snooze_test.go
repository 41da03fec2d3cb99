package store

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A snooze holds for its drift until it ends; the same 🔕 delivered again changes nothing,
// another person's or another drift's replaces it, and LiftSnooze forgets it, once.
func TestSnoozeDrift(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		sn := Snooze{Key: "local/grafana", User: "bob", At: t0, Until: t0.Add(7 * 24 * time.Hour), Fingerprint: "fp1"}
		if again, err := s.SnoozeDrift(context.Background(), sn); err != nil || again {
			t.Fatalf("first snooze: again=%v, %v", again, err)
		}
		redelivered := sn
		redelivered.At = t0.Add(time.Minute)
		if again, err := s.SnoozeDrift(context.Background(), redelivered); err != nil || !again {
			t.Fatalf("the same 🔕 again: again=%v, %v; want true", again, err)
		}
		got, err := s.Snoozes(context.Background())
		if err != nil || len(got) != 1 || !got[0].At.Equal(t0) {
			t.Fatalf("snoozes = %+v, %v; want bob's first", got, err)
		}
		for _, tc := range []struct {
			name string
			fp   string
			at   time.Time
			want bool
		}{
			{"the snoozed drift", "fp1", t0.Add(6 * 24 * time.Hour), true},
			{"other drift", "fp2", t0.Add(time.Hour), false},
			{"after it ends", "fp1", t0.Add(7 * 24 * time.Hour), false},
		} {
			if h := got[0].Holds(tc.fp, tc.at); h != tc.want {
				t.Errorf("%s: Holds = %v, want %v", tc.name, h, tc.want)
			}
		}
		other := Snooze{Key: "local/grafana", User: "alice", At: t0.Add(time.Hour), Until: t0.Add(8 * 24 * time.Hour), Fingerprint: "fp2"}
		if again, err := s.SnoozeDrift(context.Background(), other); err != nil || again {
			t.Fatalf("alice's snooze of other drift: again=%v, %v", again, err)
		}
		if got, _ := s.Snoozes(context.Background()); len(got) != 1 || got[0].User != "alice" || got[0].Fingerprint != "fp2" {
			t.Errorf("snoozes = %+v, want alice's alone", got)
		}
		if lifted, err := s.LiftSnooze(context.Background(), "local/grafana"); err != nil || lifted == nil || lifted.User != "alice" {
			t.Fatalf("LiftSnooze = %+v, %v; want alice's snooze", lifted, err)
		}
		if got, err := s.Snoozes(context.Background()); err != nil || len(got) != 0 {
			t.Errorf("after LiftSnooze: %+v, %v", got, err)
		}
		if lifted, err := s.LiftSnooze(context.Background(), "local/grafana"); err != nil || lifted != nil {
			t.Errorf("LiftSnooze again = %+v, %v; want nothing lifted", lifted, err)
		}
	})
}

// Of one 🔕 delivered many times at once, exactly one records the snooze: on PostgreSQL the
// transactions collide and are retried, and a retry must not keep the failed attempt's answer.
func TestSnoozeDriftConcurrent(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		for round := range 5 {
			sn := Snooze{Key: "local/grafana", User: "bob", At: t0.Add(time.Duration(round) * 8 * 24 * time.Hour),
				Fingerprint: "fp"}
			sn.Until = sn.At.Add(7 * 24 * time.Hour)
			var wg sync.WaitGroup
			var mu sync.Mutex
			first := 0
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					again, err := s.SnoozeDrift(context.Background(), sn)
					mu.Lock()
					defer mu.Unlock()
					if err == nil && !again {
						first++
					}
				}()
			}
			wg.Wait()
			if first != 1 {
				t.Errorf("round %d: %d snoozes recorded, want 1", round, first)
			}
		}
	})
}
