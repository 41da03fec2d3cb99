package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/eosbot/eos/executor"
)

// ErrAlreadyRun is returned by StartRun for a plan that has a run already.
var ErrAlreadyRun = errors.New("already run")

// ErrNotApproved is returned by StartRun for a plan that is no longer approved (cancelled,
// rejected or sent back to pending before its run started).
var ErrNotApproved = errors.New("not approved")

// Lock is who holds a (environment/service) key.
type Lock struct {
	Key    string    `json:"key"`
	Holder string    `json:"holder"` // the plan/run id
	Since  time.Time `json:"since"`
}

// LockedError says a key is held by another plan.
type LockedError struct{ Lock Lock }

func (e *LockedError) Error() string {
	return fmt.Sprintf("%s is locked by plan %s since %s", e.Lock.Key, e.Lock.Holder, e.Lock.Since.UTC().Format("15:04 UTC"))
}

// lock takes every key for holder, or none: the keys are checked in sorted order (the one
// order every holder uses, so a store that locks row by row can never deadlock two runs) and
// written only when none is held by someone else. The first key held by another is a
// *LockedError naming its holder.
func lock(tx txn, keys []string, holder string, at time.Time) error {
	keys = sortedKeys(keys)
	for _, key := range keys {
		if cur, err := get[Lock](tx, bucketLocks, key); err == nil && cur.Holder != holder {
			return &LockedError{Lock: *cur}
		}
	}
	for _, key := range keys {
		if cur, err := get[Lock](tx, bucketLocks, key); err == nil && cur.Holder == holder {
			continue // held already: keep its Since
		}
		if err := put(tx, bucketLocks, key, Lock{Key: key, Holder: holder, Since: at}); err != nil {
			return err
		}
	}
	return nil
}

func unlock(tx txn, keys []string, holder string) {
	for _, key := range keys {
		if cur, err := get[Lock](tx, bucketLocks, key); err == nil && cur.Holder == holder {
			tx.bucket(bucketLocks).Delete([]byte(key))
		}
	}
}

func sortedKeys(keys []string) []string {
	out := slices.Clone(keys)
	slices.Sort(out)
	return slices.Compact(out)
}

// TryLock takes every one of keys for holder in one transaction, or none, and returns the
// function that releases them. A key held by someone else gives *LockedError; taking keys one
// already holds succeeds. The release does not depend on ctx: locks taken are released even
// when the work they guarded was cancelled.
func (s *Store) TryLock(ctx context.Context, keys []string, holder string, at time.Time) (unlock func() error, err error) {
	err = s.update(ctx, func(tx txn) error { return lock(tx, keys, holder, at) })
	if err != nil {
		return nil, err
	}
	return func() error { return s.Unlock(context.WithoutCancel(ctx), keys, holder) }, nil
}

// Unlock releases those of keys that holder holds.
func (s *Store) Unlock(ctx context.Context, keys []string, holder string) error {
	return s.update(ctx, func(tx txn) error { unlock(tx, keys, holder); return nil })
}

// Locks lists the keys held now.
func (s *Store) Locks(ctx context.Context) ([]Lock, error) {
	var out []Lock
	err := s.view(ctx, func(tx txn) error {
		return each(tx, bucketLocks, func(_ string, l *Lock) bool { out = append(out, *l); return true })
	})
	return out, err
}

// Deployed is the declared state of one service in one environment: the spec of the last
// successful run that touched it.
type Deployed struct {
	Key   string        `json:"key"`
	Spec  executor.Spec `json:"spec"`
	RunID string        `json:"run_id"`
	At    time.Time     `json:"at"`
	// Destroyed is true after a successful destroy.
	Destroyed bool `json:"destroyed,omitempty"`
}

func declare(tx txn, spec executor.Spec, runID string, at time.Time) error {
	for _, u := range spec.Units {
		unit := spec
		unit.Units = []executor.Unit{u}
		unit.Target = u.Service
		unit.Deployed = nil // what the request found deployed is not part of this unit's state
		d := Deployed{Key: u.Key(spec.Env), Spec: unit, RunID: runID, At: at, Destroyed: u.Destroy}
		if err := put(tx, bucketDeployed, d.Key, d); err != nil {
			return err
		}
	}
	return nil
}

// Declared returns the declared state of env/service.
func (s *Store) Declared(ctx context.Context, key string) (*Deployed, error) {
	var d *Deployed
	err := s.view(ctx, func(tx txn) (err error) {
		d, err = get[Deployed](tx, bucketDeployed, key)
		return err
	})
	return d, err
}

// AllDeclared lists the declared state of every service not destroyed.
func (s *Store) AllDeclared(ctx context.Context) ([]*Deployed, error) {
	var out []*Deployed
	err := s.view(ctx, func(tx txn) error {
		return each(tx, bucketDeployed, func(_ string, d *Deployed) bool {
			if !d.Destroyed {
				out = append(out, d)
			}
			return true
		})
	})
	return out, err
}
