package store

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

const day = 24 * time.Hour

// Drift checks older than the cut-off go, except each service's latest; a check exactly at
// the cut-off stays.
func TestPruneDrift(t *testing.T) {
	conform(t, func(t *testing.T, open fresh) {
		now := t0.Add(200 * day)
		keepFrom := now.Add(-90 * day)
		for _, tc := range []struct {
			name string
			ages map[string][]time.Duration // service key → how old its checks are
			want map[string][]time.Duration // what is left
		}{
			{"89 and 91 days", map[string][]time.Duration{"local/grafana": {91 * day, 89 * day}},
				map[string][]time.Duration{"local/grafana": {89 * day}}},
			{"exactly 90 days stays", map[string][]time.Duration{"local/grafana": {90*day + time.Second, 90 * day, day}},
				map[string][]time.Duration{"local/grafana": {90 * day, day}}},
			{"the latest stays however old", map[string][]time.Duration{"local/grafana": {400 * day, 300 * day, 120 * day}},
				map[string][]time.Duration{"local/grafana": {120 * day}}},
			{"per service", map[string][]time.Duration{
				"local/grafana":      {100 * day, 95 * day},
				"local/grafana-old":  {100 * day, 2 * day},
				"production/grafana": {10 * day},
			}, map[string][]time.Duration{
				"local/grafana":      {95 * day},
				"local/grafana-old":  {2 * day},
				"production/grafana": {10 * day},
			}},
			// RFC3339Nano drops trailing zeros: ".5Z" sorts before "Z" although it is later.
			{"latest within one second", map[string][]time.Duration{"local/grafana": {100 * day, 100*day - 500*time.Millisecond}},
				map[string][]time.Duration{"local/grafana": {100*day - 500*time.Millisecond}}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				s, _ := open(t)
				var recs []DriftRecord
				deleted := 0
				for key, ages := range tc.ages {
					for _, age := range ages {
						recs = append(recs, DriftRecord{Key: key, At: now.Add(-age), Status: "clean"})
					}
					deleted += len(ages) - len(tc.want[key])
				}
				if err := s.RecordDrift(context.Background(), recs); err != nil {
					t.Fatal(err)
				}
				n, err := s.PruneDrift(context.Background(), keepFrom)
				if err != nil {
					t.Fatal(err)
				}
				if n != deleted {
					t.Errorf("deleted %d checks, want %d", n, deleted)
				}
				for key := range tc.ages {
					hist, err := s.DriftHistory(context.Background(), key, 0)
					if err != nil {
						t.Fatal(err)
					}
					var got []time.Duration
					for _, h := range hist {
						got = append(got, now.Sub(h.At))
					}
					if !slices.Equal(got, tc.want[key]) {
						t.Errorf("%s keeps checks %v old, want %v", key, got, tc.want[key])
					}
				}
			})
		}
	})
}

// Digest posts older than the cut-off are forgotten; younger ones keep their claim.
func TestPruneDigestPosts(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		now := t0.Add(100 * day)
		post := func(id string, age time.Duration) DigestPost {
			return DigestPost{Post: adapters.PostRef{Platform: "console", Channel: "local", ID: id},
				Digest: "daily", Keys: []string{"local/grafana"}, At: now.Add(-age)}
		}
		posts := []DigestPost{post("29", 29*day), post("30", 30*day), post("31", 31*day), post("365", 365*day)}
		if err := s.AddDigestPosts(context.Background(), posts...); err != nil {
			t.Fatal(err)
		}
		if live, err := s.ClaimDigestPost(context.Background(), posts[0].Post, "alice", now, time.Minute); err != nil || live != nil {
			t.Fatalf("claim = %+v, %v", live, err)
		}
		n, err := s.PruneDigestPosts(context.Background(), now.Add(-30*day))
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("forgot %d posts, want 2", n)
		}
		for _, tc := range []struct {
			id   string
			kept bool
		}{{"29", true}, {"30", true}, {"31", false}, {"365", false}} {
			p, err := s.DigestPost(context.Background(), adapters.PostRef{Platform: "console", Channel: "local", ID: tc.id})
			switch {
			case tc.kept && err != nil:
				t.Errorf("post %s days old: %v, want kept", tc.id, err)
			case !tc.kept && !errors.Is(err, ErrNotFound):
				t.Errorf("post %s days old: %+v, %v; want ErrNotFound", tc.id, p, err)
			}
		}
		if p, err := s.DigestPost(context.Background(), posts[0].Post); err != nil || p.Claim == nil || p.Claim.User != "alice" {
			t.Errorf("a kept post lost its claim: %+v, %v", p, err)
		}
	})
}
