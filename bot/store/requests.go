package store

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
)

// bucketRequests indexes plans by the post that asked for them: request post key + "/" + plan
// id → plan id. One request may have had several plans (a plan superseded before its run is
// posted again for the same request), hence one key per plan.
var bucketRequests = []byte("requests")

func init() { allBuckets = append(allBuckets, bucketRequests) }

// Cancellation says who cancelled a plan, or why it was cancelled when nobody did.
type Cancellation struct {
	// By is the person who cancelled it (`cancel`); nil when Eos did.
	By *Vote `json:"by,omitempty"`
	// Reason is why Eos cancelled it, as the preview says it: "the request was deleted".
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

func requestKey(ref adapters.PostRef, id string) []byte {
	return []byte(postKey(ref) + "/" + id)
}

// indexRequest records that plan p was asked for by its request post; tx is CreatePlan's.
func indexRequest(tx txn, p *Plan) error {
	if p.Request.ID == "" {
		return nil
	}
	return tx.bucket(bucketRequests).Put(requestKey(p.Request, p.ID), []byte(p.ID))
}

// PlansByRequest finds the plans a request post asked for, oldest first: how an edited or
// deleted request finds the plan it must not be approved as. Plans stored before this index
// existed are not found.
func (s *Store) PlansByRequest(ctx context.Context, ref adapters.PostRef) ([]*Plan, error) {
	prefix := []byte(postKey(ref) + "/")
	return s.plansIndexed(ctx, prefix, func([]byte) bool { return true })
}

// PlansByRequestID is PlansByRequest for a request post known by its platform and id alone,
// in whichever channel it was posted: a Discord thread is a channel of its own, whose id is
// the request's, and a message there does not say the channel the request is in. It reads
// every request key of the platform, so it is for a person's command, not for every event.
func (s *Store) PlansByRequestID(ctx context.Context, platform, id string) ([]*Plan, error) {
	return s.plansIndexed(ctx, []byte(platform+"/"), func(k []byte) bool {
		parts := strings.Split(string(k), "/") // platform/channel/post/plan
		return len(parts) == 4 && parts[2] == id
	})
}

// plansIndexed loads the plans of the request keys under prefix that match accepts, oldest first.
func (s *Store) plansIndexed(ctx context.Context, prefix []byte, match func(k []byte) bool) ([]*Plan, error) {
	var out []*Plan
	err := s.view(ctx, func(tx txn) error {
		out = nil
		var ids []string
		err := tx.bucket(bucketRequests).Scan(prefix, func(k, v []byte) bool {
			if match(k) {
				ids = append(ids, string(v))
			}
			return true
		})
		if err != nil {
			return err
		}
		for _, id := range ids {
			sp, err := s.getPlan(tx, id)
			if err != nil {
				return err
			}
			out = append(out, sp.Plan)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b *Plan) int { return a.Created.Compare(b.Created) })
	return out, nil
}
