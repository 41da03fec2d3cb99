package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/executor"
)

// PlanState is where a plan is in its life.
type PlanState string

const (
	PlanPending   PlanState = "pending"   // waiting for approvals
	PlanApproved  PlanState = "approved"  // approved, its run is starting or running
	PlanRejected  PlanState = "rejected"  // someone rejected it
	PlanExpired   PlanState = "expired"   // nobody approved it in time
	PlanCancelled PlanState = "cancelled" // `cancel` ended it
	PlanPreview   PlanState = "preview"   // `plan ...`: shown, never to be applied
	// PlanBlocked is a plan a layer already says would fail (a Salt state failing in test
	// mode, a Nomad group that cannot be placed): shown with the reasons, never to be
	// approved. Like every state but pending it is final: no reaction, expiry or cancel
	// changes it.
	PlanBlocked PlanState = "blocked"
	// PlanSuperseded means the world changed between approval and apply: a fresh plan
	// differed, so a new plan was posted for approval instead.
	PlanSuperseded PlanState = "superseded"
)

// Final reports whether nothing more can happen to a plan in this state.
func (s PlanState) Final() bool { return s != PlanPending }

// Vote is one person's approval or rejection.
type Vote struct {
	User     string    `json:"user"`
	UserID   string    `json:"user_id"`
	Platform string    `json:"platform"`
	At       time.Time `json:"at"`
	// Emoji are the approving reactions the person has on the preview, as Eos heard them
	// ("+1", "white_check_mark"): an approval stands while one is left. Empty in an approval
	// recorded before Eos kept them, and in a rejection.
	Emoji []string `json:"emoji,omitempty"`
}

// Same reports whether v and o record the same vote: the same person's (as named then), given
// at the same time, whatever emoji it holds now.
func (v Vote) Same(o Vote) bool {
	return v.Platform == o.Platform && v.UserID == o.UserID && v.User == o.User && v.At.Equal(o.At)
}

// Plan is a plan shown in chat, with everything needed to apply it after a restart.
type Plan struct {
	// ID is the short id people see ("7f3a9c21"); unique in the store.
	ID    string    `json:"id"`
	State PlanState `json:"state"`
	// Text is the request as typed.
	Text      string        `json:"text"`
	Requester adapters.User `json:"requester"`
	// Request is the post that asked; Preview the post showing the plan.
	Request adapters.PostRef `json:"request"`
	Preview adapters.PostRef `json:"preview"`
	Plan    executor.Plan    `json:"plan"`
	// Needed is how many approvals the policy asked when the plan was last judged; only for
	// the record: every decision judges the approvals by the policy in force now.
	Needed    int    `json:"needed"`
	Approvals []Vote `json:"approvals,omitempty"`
	Rejection *Vote  `json:"rejection,omitempty"`
	// Cancellation is who cancelled the plan or why, when State is cancelled.
	Cancellation *Cancellation `json:"cancellation,omitempty"`
	Created      time.Time     `json:"created"`
	Expires      time.Time     `json:"expires"`
	// Updated is when the state last changed.
	Updated time.Time `json:"updated"`
	// Outcome is how the plan's run ended, once it has (recorded by FinishRun).
	Outcome *Outcome `json:"outcome,omitempty"`
	// RunStarted is when its run started (recorded by StartRun, in the same transaction);
	// before it an approved plan may still be cancelled, rejected or sent back to pending,
	// and StartRun then refuses to start it.
	RunStarted time.Time `json:"run_started,omitzero"`
	// Held is why an approved plan's run waits to start (the disk it writes its working files
	// to is full): the approval is kept and Eos starts the run once the cause clears. Nil
	// otherwise; StartRun clears it, and so does the plan going back to pending.
	Held *Hold `json:"held,omitempty"`
	// Basis is the declared state the plan was made against: for each unit it touches (Keys),
	// the run that declared it ("" when none has), with "/destroyed" when that run destroyed
	// it. A run binds its approval to it as to the plan's hash: when another run has declared
	// a unit since, the plan was compiled from values that are no longer declared, so it is
	// superseded and its request asked again. Nil in plans stored before it was recorded.
	Basis map[string]string `json:"basis,omitempty"`
}

// Hold is what an approved plan's run waits for before it can start.
type Hold struct {
	// Reason is why, as the thread says it: "the disk holding /var/lib/eos/terraform is full".
	Reason string `json:"reason"`
	// Dir is the directory without space, when Eos can tell which.
	Dir   string    `json:"dir,omitempty"`
	Since time.Time `json:"since"`
}

// Outcome is how a plan's run ended.
type Outcome struct {
	State RunState `json:"state"`
	// RolledBack is whether a failed layer was rolled back.
	RolledBack bool `json:"rolled_back,omitempty"`
	// Unknown is whether Eos did not see how a layer ended (executor.ResultUnknown).
	Unknown bool `json:"unknown,omitempty"`
}

// Keys are the (environment/service) units the plan touches, sorted: its target, every unit
// of its spec (dependencies brought in) and the deployed dependencies it relies on unchanged.
// A run of the plan locks them all.
func (p *Plan) Keys() []string { return SpecKeys(p.Plan.Spec) }

// SpecKeys are the units spec touches, sorted, the lock keys of its run.
func SpecKeys(spec executor.Spec) []string {
	keys := []string{spec.Env + "/" + spec.Target}
	for _, u := range spec.Units {
		keys = append(keys, u.Key(spec.Env))
	}
	for _, d := range spec.Deployed {
		keys = append(keys, spec.Env+"/"+d.Service)
	}
	return sortedKeys(keys)
}

func postKey(ref adapters.PostRef) string { return ref.Platform + "/" + ref.Channel + "/" + ref.ID }

// CreatePlan stores a new plan, and the audit entries about it, in one transaction. Its id
// must be new.
func (s *Store) CreatePlan(ctx context.Context, p *Plan, audit ...Entry) error {
	return s.CreatePlanKeeping(ctx, p, nil, audit...)
}

// CreatePlanKeeping is CreatePlan that also keeps the plan's policy input document (when in is
// not nil) in the same transaction: one commit, so a preview waits for one fsync, not two.
//
// The plan and the document are encoded before the transaction, in the caller's goroutine:
// on bbolt every write runs in the one writer, so what is done there is done for a burst of
// requests one after another, while the encoding (most of a new plan's cost) can run beside
// the others'. The transaction only checks, puts the bytes and numbers the audit entries.
func (s *Store) CreatePlanKeeping(ctx context.Context, p *Plan, in *PolicyInput, audit ...Entry) error {
	var inRaw []byte
	if in != nil {
		if err := in.valid(); err != nil {
			return err
		}
		var err error
		if inRaw, err = json.Marshal(in); err != nil {
			return fmt.Errorf("encoding %s: %w", bucketPolicyInputs, err)
		}
	}
	enc, err := encodeNewPlan(p)
	if err != nil {
		return err
	}
	return s.update(ctx, func(tx txn) error {
		if in != nil {
			if err := keepPolicyInputRaw(tx, in, inRaw); err != nil {
				return err
			}
		}
		if tx.bucket(bucketPlans).Get([]byte(p.ID)) != nil {
			return fmt.Errorf("plan %s already exists", p.ID)
		}
		if err := indexRequest(tx, p); err != nil {
			return err
		}
		if p.Preview.ID != "" {
			if err := tx.bucket(bucketPosts).Put([]byte(postKey(p.Preview)), []byte(p.ID)); err != nil {
				return err
			}
		}
		for _, e := range audit {
			if err := appendTx(tx, e); err != nil {
				return err
			}
		}
		return enc.put(tx, p)
	})
}

// Plan reads a plan by id.
func (s *Store) Plan(ctx context.Context, id string) (*Plan, error) {
	var p *Plan
	err := s.view(ctx, func(tx txn) error {
		sp, err := s.getPlan(tx, id)
		if err == nil {
			p = sp.Plan
		}
		return err
	})
	return p, err
}

// PlanState reads only the state of plan id: cheaper than Plan, which reads its body too.
func (s *Store) PlanState(ctx context.Context, id string) (PlanState, error) {
	var state PlanState
	err := s.view(ctx, func(tx txn) error {
		sp, err := getHead(tx, id)
		if err == nil {
			state = sp.State
		}
		return err
	})
	return state, err
}

// PlanByPost finds the plan a preview post shows.
func (s *Store) PlanByPost(ctx context.Context, ref adapters.PostRef) (*Plan, error) {
	var p *Plan
	err := s.view(ctx, func(tx txn) error {
		id := tx.bucket(bucketPosts).Get([]byte(postKey(ref)))
		if id == nil {
			return fmt.Errorf("post %s: %w", postKey(ref), ErrNotFound)
		}
		sp, err := s.getPlan(tx, string(id))
		if err == nil {
			p = sp.Plan
		}
		return err
	})
	return p, err
}

// SetPreview records the post that shows plan id, so reactions on it find the plan, and the
// audit entries about it, in one transaction.
func (s *Store) SetPreview(ctx context.Context, id string, ref adapters.PostRef, audit ...Entry) error {
	_, err := s.RecordPreview(ctx, id, ref, audit...)
	return err
}

// RecordPreview is SetPreview that also returns the plan's state as the post was recorded: a
// change made before (a cancel from another thread) could not edit the post, one made after
// finds it. It saves the preview a read of its own.
func (s *Store) RecordPreview(ctx context.Context, id string, ref adapters.PostRef, audit ...Entry) (PlanState, error) {
	var state PlanState
	err := s.update(ctx, func(tx txn) error {
		p, err := getHead(tx, id) // the preview post is state: the body stays as it is
		if err != nil {
			return err
		}
		state = p.State
		p.Preview = ref
		if err := tx.bucket(bucketPosts).Put([]byte(postKey(ref)), []byte(id)); err != nil {
			return err
		}
		for _, e := range audit {
			if err := appendTx(tx, e); err != nil {
				return err
			}
		}
		return putStored(tx, p)
	})
	return state, err
}

// UpdatePlan reads plan id, lets fn change it, and writes it back, all in one transaction:
// the check-and-set every approval, rejection, expiry and cancel goes through. When fn
// returns an error nothing is written and the error is returned as is. fn may run more than
// once (PostgreSQL retries a transaction that collided with another): it must decide from p
// alone and set every result it hands out on each run.
func (s *Store) UpdatePlan(ctx context.Context, id string, fn func(p *Plan) error) (*Plan, error) {
	var p *Plan
	err := s.update(ctx, func(tx txn) error {
		sp, err := s.getPlan(tx, id)
		if err != nil {
			return err
		}
		p = sp.Plan
		if err := fn(p); err != nil {
			return err
		}
		return putStored(tx, sp) // the body only if fn changed it
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// UpdatePlanAudited is UpdatePlan for changes that must be recorded: fn returns the audit
// entries about the change, and they commit in the same transaction as the plan, so an
// approval is never recorded without its audit line nor the other way round.
func (s *Store) UpdatePlanAudited(ctx context.Context, id string, fn func(p *Plan) ([]Entry, error)) (*Plan, error) {
	var p *Plan
	err := s.update(ctx, func(tx txn) error {
		sp, err := s.getPlan(tx, id)
		if err != nil {
			return err
		}
		p = sp.Plan
		audit, err := fn(p)
		if err != nil {
			return err
		}
		for _, e := range audit {
			if err := appendTx(tx, e); err != nil {
				return err
			}
		}
		return putStored(tx, sp) // the body only if fn changed it
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Plans lists plans for which keep returns true, oldest first by id order.
func (s *Store) Plans(ctx context.Context, keep func(*Plan) bool) ([]*Plan, error) {
	var out []*Plan
	err := s.view(ctx, func(tx txn) error {
		out = nil // a view is not retried, but start over all the same
		return s.eachPlan(tx, func(p *Plan) bool {
			if keep(p) {
				out = append(out, p)
			}
			return true
		})
	})
	return out, err
}
