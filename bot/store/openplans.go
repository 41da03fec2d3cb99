package store

import "context"

// Plans are kept forever (they are the record of what was asked and approved), so reading all
// of them grows with the store's age. What the engine reads often — the expiry sweep, the
// start-up catch-up, status answers, the status page's overview — wants only the plans that
// can still change: pending, and approved with no outcome yet (an approved plan keeps its
// state after its run; its Outcome says how the run ended). They are indexed in their own
// bucket, written in the same transaction as the plan, so OpenPlans reads only them.

var (
	// bucketOpenPlans holds the id of every open plan, with its state.
	bucketOpenPlans = []byte("plans_open")
	// keyOpenPlansIndexed in bucketMeta says the index covers every plan: a store written by
	// an Eos from before the index is indexed once, when it is opened.
	keyOpenPlansIndexed = []byte("plans_open_indexed")
)

func init() { allBuckets = append(allBuckets, bucketOpenPlans) }

// Open reports whether p can still change: it waits for approvals, or it was approved and its
// run has not ended.
func (p *Plan) Open() bool {
	return p.State == PlanPending || p.State == PlanApproved && p.Outcome == nil
}

// indexOpen keeps the index of open plans in step with p; putStored calls it with every
// write of a plan.
func indexOpen(tx txn, p *Plan) error {
	idx := tx.bucket(bucketOpenPlans)
	if p.Open() {
		return idx.Put([]byte(p.ID), []byte(p.State))
	}
	return idx.Delete([]byte(p.ID))
}

// OpenPlans lists the open plans (Plan.Open) for which keep returns true, in id order, reading
// only them.
func (s *Store) OpenPlans(ctx context.Context, keep func(*Plan) bool) ([]*Plan, error) {
	var out []*Plan
	err := s.view(ctx, func(tx txn) error {
		out = nil
		var ids []string
		if err := tx.bucket(bucketOpenPlans).Scan(nil, func(k, _ []byte) bool {
			ids = append(ids, string(k))
			return true
		}); err != nil {
			return err
		}
		for _, id := range ids {
			sp, err := s.getPlan(tx, id)
			if err != nil {
				return err
			}
			if p := sp.Plan; p.Open() && keep(p) {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

// indexOpenPlans builds the index of open plans once for a store written before it existed.
// It is idempotent, so replicas opening one store together do no harm.
func (s *Store) indexOpenPlans(ctx context.Context) error {
	var done bool
	if err := s.kv.view(ctx, func(tx txn) error {
		done = tx.bucket(bucketMeta).Get(keyOpenPlansIndexed) != nil
		return nil
	}); err != nil || done {
		return err
	}
	return s.kv.update(ctx, func(tx txn) error {
		// Only the plans' states are read: their bodies are not needed.
		var open []*Plan
		var derr error
		if err := tx.bucket(bucketPlans).Scan(nil, func(k, raw []byte) bool {
			var sp *storedPlan
			if sp, derr = decodeHead(string(k), raw); derr == nil && sp.Open() {
				open = append(open, sp.Plan)
			}
			return derr == nil
		}); err != nil {
			return err
		}
		if derr != nil {
			return derr
		}
		// An Eos from before outcomes were recorded on plans left approved plans whose run
		// ended without one: their run says they are closed.
		kept := open[:0]
		for _, p := range open {
			if p.State == PlanApproved {
				if r, err := get[Run](tx, bucketRuns, p.ID); err == nil && r.State != RunRunning {
					continue
				}
			}
			kept = append(kept, p)
		}
		open = kept
		idx := tx.bucket(bucketOpenPlans)
		for _, p := range open {
			if err := idx.Put([]byte(p.ID), []byte(p.State)); err != nil {
				return err
			}
		}
		return tx.bucket(bucketMeta).Put(keyOpenPlansIndexed, []byte("1"))
	})
}
