package store

import (
	"context"
	"errors"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// bucketOutcomeChecks holds the pending checks of runs whose outcome in a layer Eos did not
// see: run id → OutcomeCheck. A check is pending from the run's end until Eos has checked the
// layer against the run's plan (or gave up at Until); a restarted Eos resumes every one still
// here, so a restart between the unknown outcome and the server answering again loses none.
var bucketOutcomeChecks = []byte("outcome-checks")

func init() { allBuckets = append(allBuckets, bucketOutcomeChecks) }

// OutcomeCheck is a pending check of one run's unknown outcome in one layer.
type OutcomeCheck struct {
	RunID string             `json:"run_id"`
	Layer executor.LayerName `json:"layer"`
	// Spec is what the run applied: the layer is checked against it.
	Spec executor.Spec `json:"spec"`
	// Thread is where what the check finds is posted: the run's progress post.
	Thread adapters.PostRef `json:"thread"`
	Since  time.Time        `json:"since"`
	// Until is when Eos stops waiting for the layer's server and leaves the service to the
	// next drift digest.
	Until time.Time `json:"until"`
}

// AddOutcomeCheck records c as pending, replacing an earlier check of the same run.
func (s *Store) AddOutcomeCheck(ctx context.Context, c OutcomeCheck) error {
	return s.update(ctx, func(tx txn) error { return put(tx, bucketOutcomeChecks, c.RunID, c) })
}

// OutcomeChecks lists the pending checks, by run id.
func (s *Store) OutcomeChecks(ctx context.Context) ([]OutcomeCheck, error) {
	var out []OutcomeCheck
	err := s.view(ctx, func(tx txn) error {
		out = nil // a retried transaction starts over
		return each(tx, bucketOutcomeChecks, func(_ string, c *OutcomeCheck) bool {
			out = append(out, *c)
			return true
		})
	})
	return out, err
}

// EndOutcomeCheck forgets run id's pending check and appends the audit entries about how it
// ended, in one transaction. It reports false, writing nothing, when no check of the run is
// pending (another process, or an earlier attempt, ended it): whoever ends it says so, once.
func (s *Store) EndOutcomeCheck(ctx context.Context, id string, audit ...Entry) (ended bool, err error) {
	err = s.update(ctx, func(tx txn) error {
		ended = false // a retried transaction starts over
		if _, err := get[OutcomeCheck](tx, bucketOutcomeChecks, id); errors.Is(err, ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
		for _, e := range audit {
			if err := appendTx(tx, e); err != nil {
				return err
			}
		}
		ended = true
		return tx.bucket(bucketOutcomeChecks).Delete([]byte(id))
	})
	return ended, err
}
