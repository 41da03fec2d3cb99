package store

import (
	"context"
	"encoding/binary"
	"time"
)

// Entry is one line of the append-only audit log.
type Entry struct {
	Seq uint64    `json:"seq"`
	At  time.Time `json:"at"`
	// Kind is request, preview, approval, rejection, run, result, expiry, cancel, refusal.
	Kind string `json:"kind"`
	// User is the person's handle when it happened; UserID their immutable ID on Platform.
	User     string `json:"user,omitempty"`
	UserID   string `json:"user_id,omitempty"`
	Platform string `json:"platform,omitempty"`
	PlanID   string `json:"plan_id,omitempty"`
	Hash     string `json:"hash,omitempty"`
	Service  string `json:"service,omitempty"`
	Env      string `json:"env,omitempty"`
	// Text is a short description with sensitive values already redacted.
	Text string `json:"text"`
}

// Append adds e to the audit log with the next sequence number. Entries are never changed
// or removed.
func (s *Store) Append(ctx context.Context, e Entry) error {
	return s.update(ctx, func(tx txn) error { return appendTx(tx, e) })
}

// appendTx appends e inside a write transaction, so a change and its audit line commit
// together (one fsync, and never one without the other).
func appendTx(tx txn, e Entry) error {
	b := tx.bucket(bucketAudit)
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	e.Seq = seq
	var key [8]byte
	binary.BigEndian.PutUint64(key[:], seq)
	return put(tx, bucketAudit, string(key[:]), e)
}

// Audit lists entries for which keep returns true (nil keeps all), oldest first.
func (s *Store) Audit(ctx context.Context, keep func(*Entry) bool) ([]Entry, error) {
	var out []Entry
	err := s.view(ctx, func(tx txn) error {
		return each(tx, bucketAudit, func(_ string, e *Entry) bool {
			if keep == nil || keep(e) {
				out = append(out, *e)
			}
			return true
		})
	})
	return out, err
}
