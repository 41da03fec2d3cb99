package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// RunState is where a run is.
type RunState string

const (
	RunRunning     RunState = "running"
	RunDone        RunState = "done"
	RunFailed      RunState = "failed"
	RunInterrupted RunState = "interrupted" // Eos stopped while it ran
	RunStopped     RunState = "stopped"     // stopped on request between layers; nothing rolled back
)

// Run is one approved plan being or having been applied. Its id is the plan's id.
type Run struct {
	ID      string   `json:"id"`
	State   RunState `json:"state"`
	Verb    string   `json:"verb"`
	Target  string   `json:"target"`
	Env     string   `json:"env"`
	Hash    string   `json:"hash"`
	Request string   `json:"request"`
	// Requester and Approvers are usernames.
	Requester string   `json:"requester"`
	Approvers []string `json:"approvers"`
	// Keys are the (environment/service) units the run locks: its target and every
	// dependency it touches. Runs stored before Keys existed lock Env/Target.
	Keys []string `json:"keys,omitempty"`
	// Progress is the post edited as the run advances.
	Progress adapters.PostRef       `json:"progress"`
	Layers   []executor.LayerResult `json:"layers,omitempty"`
	Started  time.Time              `json:"started"`
	Finished time.Time              `json:"finished,omitempty"`
}

// LockKeys are the keys r locks.
func (r *Run) LockKeys() []string {
	if len(r.Keys) > 0 {
		return r.Keys
	}
	return []string{r.Env + "/" + r.Target}
}

// StartRun creates run r, takes the locks for its keys and appends the audit entries about
// it, in one transaction. It fails with *LockedError when another plan holds a key, and with
// an error when the run exists already: a redelivered approval can never start a second run.
func (s *Store) StartRun(ctx context.Context, r *Run, audit ...Entry) error {
	return s.update(ctx, func(tx txn) error {
		if tx.bucket(bucketRuns).Get([]byte(r.ID)) != nil {
			return fmt.Errorf("run %s: %w", r.ID, ErrAlreadyRun)
		}
		// A run starts only from a plan approved now: a cancel, a rejection or a withdrawal
		// that reached the plan first wins, and the run never starts.
		p, err := getHead(tx, r.ID) // the run's start is state: the body stays as it is
		switch {
		case errors.Is(err, ErrNotFound):
			p = nil // a run without a plan (tests, imports)
		case err != nil:
			return err
		case p.State != PlanApproved || !p.RunStarted.IsZero():
			return fmt.Errorf("plan %s is %s: %w", r.ID, p.State, ErrNotApproved)
		}
		if err := lock(tx, r.LockKeys(), r.ID, r.Started); err != nil {
			return err
		}
		if p != nil {
			p.RunStarted, p.Held = r.Started, nil
			if err := putStored(tx, p); err != nil {
				return err
			}
		}
		for _, e := range audit {
			if err := appendTx(tx, e); err != nil {
				return err
			}
		}
		return put(tx, bucketRuns, r.ID, r)
	})
}

// UpdateRun changes run id in one transaction.
func (s *Store) UpdateRun(ctx context.Context, id string, fn func(r *Run) error) (*Run, error) {
	var r *Run
	err := s.update(ctx, func(tx txn) (err error) {
		if r, err = get[Run](tx, bucketRuns, id); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
		return put(tx, bucketRuns, id, r)
	})
	return r, err
}

// FinishRun records the outcome (on the run and on its plan, when there is one), releases
// the lock and, when the run succeeded, records spec as the declared state of every unit it
// touched, all in one transaction.
func (s *Store) FinishRun(ctx context.Context, id string, state RunState, layers []executor.LayerResult, at time.Time, spec *executor.Spec) (*Run, error) {
	var r *Run
	err := s.update(ctx, func(tx txn) (err error) {
		if r, err = get[Run](tx, bucketRuns, id); err != nil {
			return err
		}
		r.State, r.Layers, r.Finished = state, layers, at
		unlock(tx, r.LockKeys(), r.ID)
		if p, err := getHead(tx, id); err == nil {
			p.Outcome = &Outcome{State: state, RolledBack: rolledBack(layers), Unknown: unknown(layers)}
			if err := putStored(tx, p); err != nil {
				return err
			}
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		if spec != nil {
			if err := declare(tx, *spec, r.ID, at); err != nil {
				return err
			}
		}
		return put(tx, bucketRuns, id, r)
	})
	return r, err
}

// rolledBack reports whether the failed layer of a run was rolled back.
func rolledBack(layers []executor.LayerResult) bool {
	for _, l := range layers {
		if l.Status == executor.ResultFailed && l.RolledBack {
			return true
		}
	}
	return false
}

func unknown(layers []executor.LayerResult) bool {
	for _, l := range layers {
		if l.Status == executor.ResultUnknown {
			return true
		}
	}
	return false
}

// Run reads a run.
func (s *Store) Run(ctx context.Context, id string) (*Run, error) {
	var r *Run
	err := s.view(ctx, func(tx txn) (err error) {
		r, err = get[Run](tx, bucketRuns, id)
		return err
	})
	return r, err
}

// Runs lists runs for which keep returns true, newest first.
func (s *Store) Runs(ctx context.Context, keep func(*Run) bool) ([]*Run, error) {
	var out []*Run
	err := s.view(ctx, func(tx txn) error {
		return each(tx, bucketRuns, func(_ string, r *Run) bool {
			if keep == nil || keep(r) {
				out = append(out, r)
			}
			return true
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Started.After(out[j].Started) })
	return out, err
}
