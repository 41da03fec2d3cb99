package store

import (
	"bytes"
	"time"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketDrift   = []byte("drift")   // env/service \x00 RFC3339Nano → DriftRecord
	bucketDigests = []byte("digests") // digest name → DigestState
)

func init() { allBuckets = append(allBuckets, bucketDrift, bucketDigests) }

// DriftRecord is one drift check of one service.
type DriftRecord struct {
	Key string    `json:"key"` // env/service
	At  time.Time `json:"at"`
	// Status is clean, drifted or unknown.
	Status string `json:"status"`
	// Summary says what drifted per layer ("Terraform: 1 change"), or why the check failed.
	Summary string `json:"summary,omitempty"`
}

func driftKey(key string, at time.Time) []byte {
	return []byte(key + "\x00" + at.UTC().Format(time.RFC3339Nano))
}

// RecordDrift appends drift checks to the history.
func (s *Store) RecordDrift(recs []DriftRecord) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		for _, r := range recs {
			if err := put(tx, bucketDrift, string(driftKey(r.Key, r.At)), r); err != nil {
				return err
			}
		}
		return nil
	})
}

// DriftHistory lists the checks of key, oldest first, at most the last limit (0: all).
func (s *Store) DriftHistory(key string, limit int) ([]DriftRecord, error) {
	var out []DriftRecord
	prefix := []byte(key + "\x00")
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketDrift).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			r, err := get[DriftRecord](tx, bucketDrift, string(k))
			if err != nil {
				return err
			}
			out = append(out, *r)
		}
		return nil
	})
	if limit > 0 && len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out, err
}

// DriftAt returns the latest check of key made at or before t, if any.
func (s *Store) DriftAt(key string, t time.Time) (*DriftRecord, error) {
	hist, err := s.DriftHistory(key, 0)
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
func (s *Store) Digest(name string) (DigestState, error) {
	var d DigestState
	err := s.db.View(func(tx *bolt.Tx) error {
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
func (s *Store) SetDigest(d DigestState) error {
	return s.db.Update(func(tx *bolt.Tx) error { return put(tx, bucketDigests, d.Name, d) })
}
