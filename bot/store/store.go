// Package store owns Eos's embedded database: one bbolt file holding pending plans and their
// approvals, runs, locks, the declared (deployed) state of every service, and the append-only
// audit log. Everything that must survive a restart lives here.
//
// Every read-modify-write is one bbolt Update transaction, so check-and-set (approve a plan,
// take a lock, start a run) is atomic even with several goroutines. It imports adapters and
// executor for the plain data it stores, never bot.
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketPlans    = []byte("plans")
	bucketPosts    = []byte("posts") // platform/channel/post id → plan id
	bucketRuns     = []byte("runs")
	bucketLocks    = []byte("locks")
	bucketDeployed = []byte("deployed")
	bucketAudit    = []byte("audit")
	allBuckets     = [][]byte{bucketPlans, bucketPosts, bucketRuns, bucketLocks, bucketDeployed, bucketAudit}
)

// ErrNotFound is returned when a plan, run or record does not exist.
var ErrNotFound = errors.New("not found")

// Store is the bbolt database.
type Store struct {
	db *bolt.DB
}

// Open opens (or creates) the database file. A second Eos on the same file fails after
// timeout with a message saying so, instead of hanging.
func Open(path string, timeout time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating data directory: %w", err)
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, fmt.Errorf("opening %s: another Eos process holds it (waited %s)", path, timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("preparing %s: %w", path, err)
	}
	return &Store{db: db}, nil
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Writable checks that a write transaction commits, for /healthz.
func (s *Store) Writable() error {
	return s.db.Update(func(tx *bolt.Tx) error { return nil })
}

func get[T any](tx *bolt.Tx, bucket []byte, key string) (*T, error) {
	raw := tx.Bucket(bucket).Get([]byte(key))
	if raw == nil {
		return nil, fmt.Errorf("%s %q: %w", bucket, key, ErrNotFound)
	}
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("decoding %s %q: %w", bucket, key, err)
	}
	return v, nil
}

func put(tx *bolt.Tx, bucket []byte, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding %s %q: %w", bucket, key, err)
	}
	return tx.Bucket(bucket).Put([]byte(key), raw)
}

func each[T any](tx *bolt.Tx, bucket []byte, fn func(key string, v *T) bool) error {
	c := tx.Bucket(bucket).Cursor()
	for k, raw := c.First(); k != nil; k, raw = c.Next() {
		v := new(T)
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("decoding %s %q: %w", bucket, k, err)
		}
		if !fn(string(k), v) {
			return nil
		}
	}
	return nil
}
