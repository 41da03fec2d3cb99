package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/eosbot/eos/executor"
)

// How a plan is stored. A plan has two parts that live very differently:
//   - its body (Plan.Plan: the spec with the module files, templates and states it carries, and
//     the layers' plans), about 10 KB, written when it is planned and then only read;
//   - its state (who asked, the preview post, approvals, state, outcome, times), a few hundred
//     bytes, rewritten at every step of the conversation.
//
// So they are kept apart: the state in bucketPlans under the plan's id, naming the version of
// its body ("body": a tag, the first bytes of the body's SHA-256), and the body in
// bucketPlanBodies under the same id. A step that changes only the state (the preview post, an
// approval, the run's start and outcome) reads and writes the small record alone; one that
// hands the whole plan to its caller takes the body from the cache of decoded bodies
// (bodycache.go) when the tag matches, and writes the body again only when the caller changed
// it. The two parts are always written in the same transaction.
//
// Records written before this layout (layout 1, every Eos until 2026-11) have the body inline,
// under "plan", and no "body" tag. They are read as they are, and moved to this layout the
// first time they are written: the inline bytes become the body unchanged.

// bucketPlanBodies holds each plan's body: plan id → JSON of executor.Plan.
var bucketPlanBodies = []byte("plan_bodies")

func init() { allBuckets = append(allBuckets, bucketPlanBodies) }

// planFields is Plan without its methods, to embed in planRecord.
type planFields Plan

// planRecord is the stored form of a plan's state. Its "plan" field hides Plan.Plan: absent
// in this layout, the inline body in layout 1.
type planRecord struct {
	*planFields
	Inline json.RawMessage `json:"plan,omitempty"`
	Body   string          `json:"body,omitempty"`
}

// storedPlan is a plan as read in a transaction, with what is needed to write it back
// without writing its body again.
type storedPlan struct {
	*Plan
	// tag names the stored version of the body; "" for a layout-1 record.
	tag string
	// inline is a layout-1 record's body, as stored.
	inline json.RawMessage
	// read is the body as stored (the cache's value, never changed), when it was read.
	read *executor.Plan
}

// bodyTag names a version of a body by its content.
func bodyTag(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:12])
}

// decodeHead decodes a plan's state record; its body is left out.
func decodeHead(id string, raw []byte) (*storedPlan, error) {
	p := new(Plan)
	rec := planRecord{planFields: (*planFields)(p)}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("decoding %s %q: %w", bucketPlans, id, err)
	}
	sp := &storedPlan{Plan: p, tag: rec.Body}
	if rec.Body == "" && len(rec.Inline) > 0 && string(rec.Inline) != "null" {
		sp.inline = rec.Inline
	}
	return sp, nil
}

// getHead reads plan id's state, without its body: for the steps that change only the state.
func getHead(tx txn, id string) (*storedPlan, error) {
	raw := tx.bucket(bucketPlans).Get([]byte(id))
	if raw == nil {
		return nil, fmt.Errorf("%s %q: %w", bucketPlans, id, ErrNotFound)
	}
	return decodeHead(id, raw)
}

// getPlan reads plan id whole: its state and its body, the body as a copy of the cached one
// when its version is cached.
func (s *Store) getPlan(tx txn, id string) (*storedPlan, error) {
	sp, err := getHead(tx, id)
	if err != nil {
		return nil, err
	}
	return sp, s.readBody(tx, sp)
}

// readBody fills sp.Plan.Plan with sp's body.
func (s *Store) readBody(tx txn, sp *storedPlan) error {
	if sp.tag == "" {
		if sp.inline == nil {
			return nil // a layout-1 record with no body: nothing to read
		}
		body := new(executor.Plan)
		if err := json.Unmarshal(sp.inline, body); err != nil {
			return fmt.Errorf("decoding %s %q: %w", bucketPlans, sp.ID, err)
		}
		sp.read = body
		sp.Plan.Plan = cloneBody(body)
		return nil
	}
	body := s.bodies.get(sp.ID, sp.tag)
	if body == nil {
		raw := tx.bucket(bucketPlanBodies).Get([]byte(sp.ID))
		if raw == nil {
			return fmt.Errorf("the body of plan %s (version %s) is missing from %s", sp.ID, sp.tag, bucketPlanBodies)
		}
		if got := bodyTag(raw); got != sp.tag {
			return fmt.Errorf("the body of plan %s is version %s, its record names %s", sp.ID, got, sp.tag)
		}
		body = new(executor.Plan)
		if err := json.Unmarshal(raw, body); err != nil {
			return fmt.Errorf("decoding %s %q: %w", bucketPlanBodies, sp.ID, err)
		}
		var in interner
		in.intern(reflect.ValueOf(body).Elem())
		s.bodies.add(sp.ID, sp.tag, body, in.handles)
	}
	sp.read = body
	sp.Plan.Plan = cloneBody(body)
	return nil
}

// putStored writes sp back: its state always; its body only when it is new, was changed since
// it was read, or was inline (layout 1: the record moves to this layout, the inline bytes
// becoming the body as they are).
func putStored(tx txn, sp *storedPlan) error {
	switch {
	case sp.tag != "" && (sp.read == nil || reflect.DeepEqual(*sp.read, sp.Plan.Plan)):
		// The body as stored: a step that changed only the state.
	case sp.inline != nil && (sp.read == nil || reflect.DeepEqual(*sp.read, sp.Plan.Plan)):
		if err := writeBody(tx, sp, sp.inline); err != nil {
			return err
		}
	default:
		raw, err := sp.Plan.Plan.JSON()
		if err != nil {
			return fmt.Errorf("encoding %s %q: %w", bucketPlanBodies, sp.ID, err)
		}
		if err := writeBody(tx, sp, raw); err != nil {
			return err
		}
	}
	raw, err := json.Marshal(planRecord{planFields: (*planFields)(sp.Plan), Body: sp.tag})
	if err != nil {
		return fmt.Errorf("encoding %s %q: %w", bucketPlans, sp.ID, err)
	}
	if err := tx.bucket(bucketPlans).Put([]byte(sp.ID), raw); err != nil {
		return err
	}
	return indexOpen(tx, sp.Plan)
}

// newPlan is a new plan encoded ahead of its transaction: its body, the body's tag, and its
// state record naming that tag.
type newPlan struct {
	body, record []byte
	tag          string
}

// encodeNewPlan encodes p as putStored writes a new plan (&storedPlan{Plan: p}).
func encodeNewPlan(p *Plan) (newPlan, error) {
	body, err := p.Plan.JSON() // json.Marshal's bytes, without encoding the spec again
	if err != nil {
		return newPlan{}, fmt.Errorf("encoding %s %q: %w", bucketPlanBodies, p.ID, err)
	}
	tag := bodyTag(body)
	record, err := json.Marshal(planRecord{planFields: (*planFields)(p), Body: tag})
	if err != nil {
		return newPlan{}, fmt.Errorf("encoding %s %q: %w", bucketPlans, p.ID, err)
	}
	return newPlan{body: body, record: record, tag: tag}, nil
}

// put writes the encoded plan p in tx: what putStored(tx, &storedPlan{Plan: p}) writes.
func (n newPlan) put(tx txn, p *Plan) error {
	if err := tx.bucket(bucketPlanBodies).Put([]byte(p.ID), n.body); err != nil {
		return err
	}
	if err := tx.bucket(bucketPlans).Put([]byte(p.ID), n.record); err != nil {
		return err
	}
	return indexOpen(tx, p)
}

func writeBody(tx txn, sp *storedPlan, raw []byte) error {
	if err := tx.bucket(bucketPlanBodies).Put([]byte(sp.ID), raw); err != nil {
		return err
	}
	sp.tag, sp.inline = bodyTag(raw), nil
	return nil
}

// eachPlan calls fn with every plan whole, in id order, until fn returns false.
func (s *Store) eachPlan(tx txn, fn func(p *Plan) bool) error {
	var derr error
	err := tx.bucket(bucketPlans).Scan(nil, func(k, raw []byte) bool {
		var sp *storedPlan
		if sp, derr = decodeHead(string(k), raw); derr != nil {
			return false
		}
		if derr = s.readBody(tx, sp); derr != nil { // reading another bucket is allowed
			return false
		}
		return fn(sp.Plan)
	})
	if derr != nil {
		return derr
	}
	return err
}
