package store

import (
	"bytes"
	"context"
	"fmt"
	"time"
)

// Retention: drift history and digest posts are the two buckets that grow with every scan.
// Each is pruned in one Update transaction; the caller (the engine) decides when and with
// which cut-off. The audit log, plans and runs are never pruned here.

// PruneDrift deletes, in one transaction, every drift check made before keepFrom except the
// latest check of each service, which a digest compares its next scan with however old it
// is. Checks made at or after keepFrom are kept. It returns how many checks it deleted.
func (s *Store) PruneDrift(ctx context.Context, keepFrom time.Time) (int, error) {
	type check struct {
		service string
		key     []byte
	}
	n := 0
	err := s.update(ctx, func(tx txn) error {
		n = 0 // a retried transaction starts over
		// The latest check is found by time, not key order: RFC3339Nano drops trailing
		// zeros, so keys made within one second do not sort by time.
		latest := map[string][]byte{} // service key → the key of its latest check
		latestAt := map[string]time.Time{}
		var old []check
		b := tx.bucket(bucketDrift)
		var serr error
		err := b.Scan(nil, func(k, _ []byte) bool {
			service, at, err := splitDriftKey(k)
			if err != nil {
				serr = err
				return false
			}
			k = bytes.Clone(k) // k is valid only during the scan
			if l, ok := latestAt[service]; !ok || at.After(l) {
				latest[service], latestAt[service] = k, at
			}
			if at.Before(keepFrom) {
				old = append(old, check{service: service, key: k})
			}
			return true
		})
		if serr != nil {
			return serr
		}
		if err != nil {
			return err
		}
		for _, ck := range old {
			if bytes.Equal(latest[ck.service], ck.key) {
				continue
			}
			if err := b.Delete(ck.key); err != nil {
				return fmt.Errorf("deleting drift check %q: %w", ck.key, err)
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning drift history: %w", err)
	}
	return n, nil
}

// splitDriftKey reads the service key and the time of a drift history key (see driftKey).
// The time comes from the key, not the record, so pruning decodes no JSON.
func splitDriftKey(k []byte) (service string, at time.Time, err error) {
	i := bytes.LastIndexByte(k, 0)
	if i < 0 {
		return "", time.Time{}, fmt.Errorf("drift history key %q has no time", k)
	}
	at, err = time.Parse(time.RFC3339Nano, string(k[i+1:]))
	if err != nil {
		return "", time.Time{}, fmt.Errorf("drift history key %q: %w", k, err)
	}
	return string(k[:i]), at, nil
}

// PruneDigestPosts forgets, in one transaction, every digest post made before keepFrom: a 🔧
// on it is then a reaction on a post Eos does not know. It returns how many it forgot.
func (s *Store) PruneDigestPosts(ctx context.Context, keepFrom time.Time) (int, error) {
	n := 0
	err := s.update(ctx, func(tx txn) error {
		var doomed []string
		err := each(tx, bucketDigestPosts, func(key string, p *DigestPost) bool {
			if p.At.Before(keepFrom) {
				doomed = append(doomed, key)
			}
			return true
		})
		if err != nil {
			return err
		}
		b := tx.bucket(bucketDigestPosts)
		for _, key := range doomed {
			if err := b.Delete([]byte(key)); err != nil {
				return fmt.Errorf("deleting digest post %q: %w", key, err)
			}
		}
		n = len(doomed)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning digest posts: %w", err)
	}
	return n, nil
}
