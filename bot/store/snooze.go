package store

import (
	"context"
	"errors"
	"time"
)

// bucketSnoozes holds each service's snooze: env/service → Snooze.
var bucketSnoozes = []byte("snoozes")

func init() { allBuckets = append(allBuckets, bucketSnoozes) }

// Snooze is a 🔕 on a drifted service: digests stop listing its drift as needing attention
// until Until, or until the drift is no longer the one snoozed.
type Snooze struct {
	Key  string    `json:"key"` // env/service
	User string    `json:"user"`
	At   time.Time `json:"at"`
	// Until is when the snooze ends by itself.
	Until time.Time `json:"until"`
	// Fingerprint names the drift that was snoozed (DriftRecord.Fingerprint); drift with
	// another fingerprint ends the snooze.
	Fingerprint string `json:"fingerprint"`
}

// Holds reports whether the snooze still covers drift with fingerprint fp at t.
func (s *Snooze) Holds(fp string, t time.Time) bool {
	return s != nil && t.Before(s.Until) && s.Fingerprint == fp
}

// SnoozeDrift records sn, replacing the service's earlier snooze. It reports whether the same
// drift was already snoozed by the same person until a time no earlier (a redelivered 🔕).
func (s *Store) SnoozeDrift(ctx context.Context, sn Snooze) (again bool, err error) {
	err = s.update(ctx, func(tx txn) error {
		again = false // a retried transaction starts over
		if old, err := get[Snooze](tx, bucketSnoozes, sn.Key); err == nil &&
			old.User == sn.User && old.Fingerprint == sn.Fingerprint && !old.Until.Before(sn.At) {
			again = true
			return nil
		}
		return put(tx, bucketSnoozes, sn.Key, sn)
	})
	return again, err
}

// Snoozes lists every snooze, live or ended, by key.
func (s *Store) Snoozes(ctx context.Context) ([]Snooze, error) {
	var out []Snooze
	err := s.view(ctx, func(tx txn) error {
		out = nil
		return each(tx, bucketSnoozes, func(_ string, sn *Snooze) bool {
			out = append(out, *sn)
			return true
		})
	})
	return out, err
}

// LiftSnooze forgets key's snooze and returns it, in one transaction; nil when there was
// none (it was lifted already, or never made).
func (s *Store) LiftSnooze(ctx context.Context, key string) (*Snooze, error) {
	var lifted *Snooze
	err := s.update(ctx, func(tx txn) error {
		lifted = nil // a retried transaction starts over
		sn, err := get[Snooze](tx, bucketSnoozes, key)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		lifted = sn
		return tx.bucket(bucketSnoozes).Delete([]byte(key))
	})
	return lifted, err
}
