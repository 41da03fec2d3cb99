package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/eosbot/eos/adapters"
)

var (
	bucketDrift   = []byte("drift")   // env/service \x00 RFC3339Nano → DriftRecord
	bucketDigests = []byte("digests") // digest name → DigestState
	// platform/channel/post id → DigestPost
	bucketDigestPosts = []byte("digest-posts")
)

func init() { allBuckets = append(allBuckets, bucketDrift, bucketDigests, bucketDigestPosts) }

// DriftRecord is one drift check of one service.
type DriftRecord struct {
	Key string    `json:"key"` // env/service
	At  time.Time `json:"at"`
	// Status is clean, drifted or unknown.
	Status string `json:"status"`
	// Summary says what drifted per layer ("Terraform: 1 change"), or why the check failed.
	Summary string `json:"summary,omitempty"`
	// Fingerprint names exactly what drifted: equal fingerprints, the same drift. Empty for a
	// clean check, and in checks recorded before Eos kept it.
	Fingerprint string `json:"fingerprint,omitempty"`
}

func driftKey(key string, at time.Time) []byte {
	return []byte(key + "\x00" + at.UTC().Format(time.RFC3339Nano))
}

// RecordDrift appends drift checks to the history.
func (s *Store) RecordDrift(ctx context.Context, recs []DriftRecord) error {
	return s.update(ctx, func(tx txn) error {
		for _, r := range recs {
			if err := put(tx, bucketDrift, string(driftKey(r.Key, r.At)), r); err != nil {
				return err
			}
		}
		return nil
	})
}

// DriftHistory lists the checks of key, oldest first, at most the last limit (0: all).
func (s *Store) DriftHistory(ctx context.Context, key string, limit int) ([]DriftRecord, error) {
	var out []DriftRecord
	prefix := []byte(key + "\x00")
	err := s.view(ctx, func(tx txn) error {
		var derr error
		err := tx.bucket(bucketDrift).Scan(prefix, func(k, raw []byte) bool {
			var r DriftRecord
			if derr = json.Unmarshal(raw, &r); derr != nil {
				derr = fmt.Errorf("decoding drift check %q: %w", k, derr)
				return false
			}
			out = append(out, r)
			return true
		})
		if derr != nil {
			return derr
		}
		return err
	})
	// Keys of one service sort by time except within a second (RFC3339Nano drops trailing
	// zeros); the stable sort puts those in order too.
	slices.SortStableFunc(out, func(a, b DriftRecord) int { return a.At.Compare(b.At) })
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, err
}

// DriftAt returns the latest check of key made at or before t, if any.
func (s *Store) DriftAt(ctx context.Context, key string, t time.Time) (*DriftRecord, error) {
	hist, err := s.DriftHistory(ctx, key, 0)
	if err != nil {
		return nil, err
	}
	for i := len(hist) - 1; i >= 0; i-- {
		if !hist[i].At.After(t) {
			return &hist[i], nil
		}
	}
	return nil, nil
}

// DigestState is what Eos remembers of a scheduled digest.
type DigestState struct {
	Name    string    `json:"name"`
	LastRun time.Time `json:"last_run"`
}

// Digest reads a digest's state; a digest never run has a zero LastRun.
func (s *Store) Digest(ctx context.Context, name string) (DigestState, error) {
	var d DigestState
	err := s.view(ctx, func(tx txn) error {
		got, err := get[DigestState](tx, bucketDigests, name)
		if err == nil {
			d = *got
		}
		return nil
	})
	d.Name = name
	return d, err
}

// SetDigest records a digest's state.
func (s *Store) SetDigest(ctx context.Context, d DigestState) error {
	return s.update(ctx, func(tx txn) error { return put(tx, bucketDigests, d.Name, d) })
}

// DigestPost is a post of a drift digest that stands for services that are not clean: a 🔧
// reaction on it asks for a reconcile plan of its service.
type DigestPost struct {
	Post   adapters.PostRef `json:"post"`
	Digest string           `json:"digest"`
	// Keys are the env/service keys the post is about: one for a service's own reply, every
	// listed service for the headline.
	Keys []string  `json:"keys"`
	At   time.Time `json:"at"`
	// Claim is the latest 🔧 that asked for a plan from this post.
	Claim *Claim `json:"claim,omitempty"`
	// Hinted is set once a 🔧 on a headline listing several services was answered.
	Hinted bool `json:"hinted,omitempty"`
}

// Claim is a 🔧 turned into a plan: who asked, when, and the plan once it is stored.
type Claim struct {
	User string    `json:"user"`
	At   time.Time `json:"at"`
	// PlanID is empty while the plan is being made.
	PlanID string `json:"plan_id,omitempty"`
}

// AddDigestPosts remembers what each post of a digest stands for.
func (s *Store) AddDigestPosts(ctx context.Context, posts ...DigestPost) error {
	return s.update(ctx, func(tx txn) error {
		for _, p := range posts {
			if err := put(tx, bucketDigestPosts, postKey(p.Post), p); err != nil {
				return err
			}
		}
		return nil
	})
}

// DigestPost returns what ref stands for, or ErrNotFound when it is no digest's post.
func (s *Store) DigestPost(ctx context.Context, ref adapters.PostRef) (*DigestPost, error) {
	var p *DigestPost
	err := s.view(ctx, func(tx txn) (err error) {
		p, err = get[DigestPost](tx, bucketDigestPosts, postKey(ref))
		return err
	})
	return p, err
}

// ClaimDigestPost lets user ask for a plan from ref, in one transaction, unless the post's
// current claim is still live: a plan being made for less than stale, or a plan still
// pending. It returns that live claim (and changes nothing), or nil when user now holds it.
func (s *Store) ClaimDigestPost(ctx context.Context, ref adapters.PostRef, user string, at time.Time, stale time.Duration) (*Claim, error) {
	var live *Claim
	err := s.update(ctx, func(tx txn) error {
		live = nil // a retried transaction starts over
		p, err := get[DigestPost](tx, bucketDigestPosts, postKey(ref))
		if err != nil {
			return err
		}
		if c := p.Claim; c != nil {
			switch {
			case c.PlanID == "" && at.Sub(c.At) < stale:
				live = c
			case c.PlanID != "":
				if plan, err := getHead(tx, c.PlanID); err == nil && plan.State == PlanPending {
					live = c
				}
			}
		}
		if live != nil {
			return nil
		}
		p.Claim = &Claim{User: user, At: at}
		return put(tx, bucketDigestPosts, postKey(ref), p)
	})
	return live, err
}

// SetClaimPlan records the plan user's claim on ref produced; an empty planID releases the
// claim (no plan was made). A claim that is no longer user's is left alone.
func (s *Store) SetClaimPlan(ctx context.Context, ref adapters.PostRef, user, planID string) error {
	return s.update(ctx, func(tx txn) error {
		p, err := get[DigestPost](tx, bucketDigestPosts, postKey(ref))
		if err != nil {
			return err
		}
		if p.Claim == nil || p.Claim.User != user || p.Claim.PlanID != "" {
			return nil
		}
		if planID == "" {
			p.Claim = nil
		} else {
			p.Claim.PlanID = planID
		}
		return put(tx, bucketDigestPosts, postKey(ref), p)
	})
}

// MarkHinted sets ref's Hinted flag and reports whether it was the first to.
func (s *Store) MarkHinted(ctx context.Context, ref adapters.PostRef) (first bool, err error) {
	err = s.update(ctx, func(tx txn) error {
		first = false // a retried transaction starts over
		p, err := get[DigestPost](tx, bucketDigestPosts, postKey(ref))
		if err != nil || p.Hinted {
			return err
		}
		p.Hinted, first = true, true
		return put(tx, bucketDigestPosts, postKey(ref), p)
	})
	return first, err
}
