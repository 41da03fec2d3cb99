package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Policy inputs: the input document each plan was judged on by policy as code, with what the
// policy in force then decided, kept for a replay window so that `eos policy replay` can judge
// a candidate policy set over past plans. The document is the one the rules saw: masked as
// everywhere (a secret's value never enters it).
//
// Keys sort by time: "2026-11-26T14/2026-11-26T14:05:00.000000000Z/PLANID", the hour first.
// An hour is read in one transaction (PostgreSQL reads a scanned range whole, so a reader
// holds at most one hour of documents at a time), and bucketPolicyHours lists the hours that
// hold any, so neither replay nor pruning has to guess where the documents start.
var (
	bucketPolicyInputs = []byte("policy_inputs")
	bucketPolicyHours  = []byte("policy_input_hours") // "2026-11-26T14" → hourHolds (older Eos: a count)
)

// hourHolds is the value of an hour that holds documents; only the keys of bucketPolicyHours
// are read.
var hourHolds = []byte("1")

func init() { allBuckets = append(allBuckets, bucketPolicyInputs, bucketPolicyHours) }

const (
	policyHourLayout = "2006-01-02T15"
	// policyAtLayout has a fixed width, so the keys of one hour sort by time.
	policyAtLayout = "2006-01-02T15:04:05.000000000Z"
)

// PolicyInput is one plan's input document as policy as code judged it.
type PolicyInput struct {
	PlanID  string    `json:"plan_id"`
	At      time.Time `json:"at"`
	Service string    `json:"service,omitempty"`
	Env     string    `json:"env,omitempty"`
	// Input is the document, as JSON.
	Input json.RawMessage `json:"input"`
	// PolicySHA is the SHA-256 of the policy set in force that judged it, "" when none was.
	PolicySHA string `json:"policy_sha,omitempty"`
	// Decisions are what that policy decided.
	Decisions []PolicyDecision `json:"decisions,omitempty"`
}

// PolicyDecision is one decision of the policy in force: its kind (deny, require, warn), the
// author's message and the rule ("eos.firewall.deny").
type PolicyDecision struct {
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
	Rule string `json:"rule"`
}

func policyInputKey(in *PolicyInput) (hour, key string) {
	at := in.At.UTC()
	hour = at.Format(policyHourLayout)
	return hour, hour + "/" + at.Format(policyAtLayout) + "/" + in.PlanID
}

// KeepPolicyInput stores in (a plan judged again, at another time, is kept again).
func (s *Store) KeepPolicyInput(ctx context.Context, in *PolicyInput) error {
	if err := in.valid(); err != nil {
		return err
	}
	return s.update(ctx, func(tx txn) error { return keepPolicyInputTx(tx, in) })
}

func (in *PolicyInput) valid() error {
	if in.PlanID == "" || in.At.IsZero() || len(in.Input) == 0 {
		return fmt.Errorf("keeping a policy input: plan id, time and document are required")
	}
	return nil
}

// keepPolicyInputTx keeps in within transaction tx, counting it in its hour's index.
func keepPolicyInputTx(tx txn, in *PolicyInput) error { return keepPolicyInputRaw(tx, in, nil) }

// keepPolicyInputRaw is keepPolicyInputTx with in already encoded as raw (nil: encode it here).
func keepPolicyInputRaw(tx txn, in *PolicyInput, raw []byte) error {
	hour, key := policyInputKey(in)
	// The hour's row is written by its first document only: every plan writing it (it was a
	// count until 2026-11-26) made a burst's plans collide on PostgreSQL, and fail after their
	// retries ("could not serialize access due to concurrent update").
	if hours := tx.bucket(bucketPolicyHours); hours.Get([]byte(hour)) == nil {
		if err := hours.Put([]byte(hour), hourHolds); err != nil {
			return err
		}
	}
	if raw != nil {
		return tx.bucket(bucketPolicyInputs).Put([]byte(key), raw)
	}
	return put(tx, bucketPolicyInputs, key, in)
}

// EachPolicyInput calls fn with every input document kept at or after since, oldest first,
// until fn returns an error (which it returns). It streams: one hour of documents is read at
// a time, and fn sees each while the next is not yet decoded.
func (s *Store) EachPolicyInput(ctx context.Context, since time.Time, fn func(*PolicyInput) error) error {
	hours, err := s.policyHours(ctx)
	if err != nil {
		return err
	}
	from := since.UTC().Format(policyHourLayout)
	sinceKey := from + "/" + since.UTC().Format(policyAtLayout)
	for _, h := range hours {
		if h < from {
			continue
		}
		var ferr error
		err := s.view(ctx, func(tx txn) error {
			ferr = nil
			var derr error
			err := tx.bucket(bucketPolicyInputs).Scan([]byte(h+"/"), func(k, raw []byte) bool {
				if string(k) < sinceKey {
					return true
				}
				in := new(PolicyInput)
				if derr = json.Unmarshal(raw, in); derr != nil {
					derr = fmt.Errorf("decoding %s %q: %w", bucketPolicyInputs, k, derr)
					return false
				}
				ferr = fn(in)
				return ferr == nil
			})
			if derr != nil {
				return derr
			}
			return err
		})
		if ferr != nil {
			return ferr
		}
		if err != nil {
			return fmt.Errorf("reading policy inputs: %w", err)
		}
	}
	return nil
}

// policyHours lists the hours that hold documents, oldest first.
func (s *Store) policyHours(ctx context.Context) ([]string, error) {
	var hours []string
	err := s.view(ctx, func(tx txn) error {
		hours = nil
		return tx.bucket(bucketPolicyHours).Scan(nil, func(k, _ []byte) bool {
			hours = append(hours, string(k))
			return true
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing policy inputs: %w", err)
	}
	return hours, nil
}

// PrunePolicyInputs forgets every input document kept before keepFrom, one hour per
// transaction; a document kept exactly at keepFrom stays. It returns how many it forgot.
func (s *Store) PrunePolicyInputs(ctx context.Context, keepFrom time.Time) (int, error) {
	hours, err := s.policyHours(ctx)
	if err != nil {
		return 0, err
	}
	cut := keepFrom.UTC().Format(policyHourLayout)
	cutKey := []byte(cut + "/" + keepFrom.UTC().Format(policyAtLayout))
	total := 0
	for _, h := range hours {
		if h > cut {
			break
		}
		n := 0
		err := s.update(ctx, func(tx txn) error {
			n = 0
			b := tx.bucket(bucketPolicyInputs)
			var old [][]byte
			left := 0
			if err := b.Scan([]byte(h+"/"), func(k, _ []byte) bool {
				if bytes.Compare(k, cutKey) < 0 {
					old = append(old, bytes.Clone(k))
				} else {
					left++
				}
				return true
			}); err != nil {
				return err
			}
			for _, k := range old {
				if err := b.Delete(k); err != nil {
					return fmt.Errorf("deleting policy input %q: %w", k, err)
				}
			}
			n = len(old)
			if left == 0 {
				return tx.bucket(bucketPolicyHours).Delete([]byte(h))
			}
			return nil
		})
		if err != nil {
			return total, fmt.Errorf("pruning policy inputs: %w", err)
		}
		total += n
	}
	return total, nil
}
