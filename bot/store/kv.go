package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// The store's logic (check-and-set of approvals, all-or-nothing locks, a run's start with its
// audit line) is written once, over a small transactional key-value interface with two
// implementations: bbolt (kv_bolt.go, the embedded default) and PostgreSQL (kv_postgres.go,
// for replicas). Each bucket is an ordered map of byte keys to JSON values, as in bbolt.

// backend runs transactions. update commits fn's writes atomically or not at all, and may run
// fn more than once (PostgreSQL retries a serialization failure), so fn must only change
// state through its txn and variables it sets afresh on every run: a result flag set in an
// attempt that was then retried must not survive into the next (TestDigestPostConcurrentClaimsAndHint).
//
// ctx bounds a transaction: on PostgreSQL its cancellation and deadline reach the database,
// within the backend's own timeout; bbolt, local and short, stops waiting to start a write
// once ctx is done. The store's exported methods take no context yet and pass
// context.Background() (Store.view, Store.update); opening a store passes its own.
type backend interface {
	view(ctx context.Context, fn func(txn) error) error
	update(ctx context.Context, fn func(txn) error) error
	close() error
}

// txn is one transaction. A failed operation makes the whole transaction fail: the error is
// kept and returned by view/update whatever fn returns (see errTxn), so a failed read never
// passes for a missing key.
type txn interface {
	bucket(name []byte) bucket
	// getShared reads key like get and, on PostgreSQL, holds a share lock on it until commit:
	// the fencing epoch is read this way so a new leader's bump waits for, or refutes, every
	// write in flight.
	getShared(bucket, key []byte) []byte
}

// bucket is one ordered map inside a transaction.
type bucket interface {
	Get(key []byte) []byte
	Put(key, value []byte) error
	Delete(key []byte) error
	NextSequence() (uint64, error)
	// Sequence is the last number NextSequence gave; SetSequence sets it (for copying a store).
	Sequence() uint64
	SetSequence(n uint64) error
	// Scan calls fn for each key starting with prefix (nil: every key), in byte order, until
	// fn returns false. k and v are valid only during fn, and fn must not write to the
	// bucket being scanned (collect the keys, write after).
	Scan(prefix []byte, fn func(k, v []byte) bool) error
}

func get[T any](tx txn, b []byte, key string) (*T, error) {
	raw := tx.bucket(b).Get([]byte(key))
	if raw == nil {
		return nil, fmt.Errorf("%s %q: %w", b, key, ErrNotFound)
	}
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("decoding %s %q: %w", b, key, err)
	}
	return v, nil
}

func put(tx txn, b []byte, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s %q: %w", b, key, err)
	}
	return tx.bucket(b).Put([]byte(key), raw)
}

func each[T any](tx txn, b []byte, fn func(key string, v *T) bool) error {
	var derr error
	err := tx.bucket(b).Scan(nil, func(k, raw []byte) bool {
		v := new(T)
		if derr = json.Unmarshal(raw, v); derr != nil {
			derr = fmt.Errorf("decoding %s %q: %w", b, k, derr)
			return false
		}
		return fn(string(k), v)
	})
	if derr != nil {
		return derr
	}
	return err
}
