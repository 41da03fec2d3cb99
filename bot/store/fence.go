package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
)

// Fencing. Replicas elect one leader (package leader), but an election alone cannot stop a leader
// that was paused (SIGSTOP, a long GC, a lost network) and wakes up after another took over:
// it still believes it leads. So each leadership has an epoch, a number kept in the store and
// raised by Lead. A Store that leads at epoch E commits a write only while the store's epoch
// is still E; the check and the write are one transaction, and on PostgreSQL the epoch is read
// under a share lock, so a new leader's Lead waits for a write in flight or refutes it. The
// first refused write calls the OnFenced hook: the old leader steps down.

var (
	bucketMeta = []byte("meta")
	keyEpoch   = []byte("epoch")
)

func init() { allBuckets = append(allBuckets, bucketMeta) }

// ErrFenced is wrapped by every write refused because another leadership began.
var ErrFenced = errors.New("fenced: another Eos leads now")

// FencedError says which leadership wrote and which one leads.
type FencedError struct{ Mine, Current uint64 }

func (e *FencedError) Error() string {
	return fmt.Sprintf("leadership epoch %d is over: epoch %d leads now; nothing was written", e.Mine, e.Current)
}

func (e *FencedError) Unwrap() error { return ErrFenced }

func decodeEpoch(raw []byte) uint64 {
	if len(raw) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(raw)
}

// Lead begins a leadership: it raises the store's epoch and fences every later write of this
// Store on the new value. Call it once this process holds the election; it returns the epoch.
func (s *Store) Lead(ctx context.Context) (uint64, error) {
	var epoch uint64
	err := s.kv.update(ctx, func(tx txn) error {
		epoch = decodeEpoch(tx.getShared(bucketMeta, keyEpoch)) + 1
		var raw [8]byte
		binary.BigEndian.PutUint64(raw[:], epoch)
		return tx.bucket(bucketMeta).Put(keyEpoch, raw[:])
	})
	if err != nil {
		return 0, fmt.Errorf("raising the leadership epoch: %w", err)
	}
	s.epoch.Store(epoch)
	return epoch, nil
}

// Epoch is the leadership this Store writes for, 0 when it is not fenced.
func (s *Store) Epoch() uint64 { return s.epoch.Load() }

// CurrentEpoch reads the store's epoch: the leadership that may write now.
func (s *Store) CurrentEpoch(ctx context.Context) (uint64, error) {
	var epoch uint64
	err := s.kv.view(ctx, func(tx txn) error {
		epoch = decodeEpoch(tx.bucket(bucketMeta).Get(keyEpoch))
		return nil
	})
	return epoch, err
}

// OnFenced sets fn to be called (once per refused write, from the writing goroutine) when a
// write is refused because another leadership began.
func (s *Store) OnFenced(fn func(error)) { s.onFenced.Store(&fn) }

// update runs fn as one write transaction, fenced when this Store leads.
func (s *Store) update(ctx context.Context, fn func(txn) error) error {
	err := s.kv.update(ctx, func(tx txn) error {
		if mine := s.epoch.Load(); mine != 0 {
			if cur := decodeEpoch(tx.getShared(bucketMeta, keyEpoch)); cur != mine {
				return &FencedError{Mine: mine, Current: cur}
			}
		}
		return fn(tx)
	})
	if errors.Is(err, ErrFenced) {
		if hook := s.onFenced.Load(); hook != nil {
			(*hook)(err)
		}
	}
	return err
}
