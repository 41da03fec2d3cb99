package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// maxGroup bounds how many writes one bbolt transaction commits together.
const maxGroup = 256

// boltBackend is the embedded store: one file, one writer, every commit fsynced. Writes are
// committed in groups (group commit): one goroutine takes the first write waiting, every other
// write already waiting behind it, runs them one after another in a single transaction and
// commits it with one fsync. A write that waits alone commits at once, so a lone request pays
// no delay; a burst of requests pays one fsync per group instead of one per write, which is
// what made 500 conversations at once queue behind ~2,500 fsyncs.
//
// Each write still runs whole, in order, inside the transaction, and sees the writes before it
// in the group: a check-and-set (an approval, a lock) is decided exactly as if the writes had
// been committed one by one in that order. A write that fails is not allowed to undo the
// others: the group is rolled back, committed again without it, and the failed write then
// runs alone, after the rest, and its own answer (error or not) is what its caller gets. So a
// write function may run more than once; every one already may, since the PostgreSQL backend
// retries serialization failures, and none has effects outside its transaction that repeat.
type boltBackend struct {
	db     *bolt.DB
	writes chan boltWrite
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
	// commits counts the transactions committed, for tests.
	commits atomic.Int64
}

type boltWrite struct {
	fn     func(txn) error
	result chan error
}

// errSkipGroup rolls back a group in which one write failed.
var errSkipGroup = errors.New("a write of the group failed")

func newBoltBackend(db *bolt.DB) *boltBackend {
	b := &boltBackend{db: db, writes: make(chan boltWrite), stop: make(chan struct{}), done: make(chan struct{})}
	go b.writer()
	return b
}

func (b *boltBackend) view(ctx context.Context, fn func(txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return b.db.View(func(tx *bolt.Tx) error { return fn(boltTxn{tx}) })
}

func (b *boltBackend) update(ctx context.Context, fn func(txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w := boltWrite{fn: fn, result: make(chan error, 1)}
	select {
	case b.writes <- w:
	case <-b.stop:
		return bolt.ErrDatabaseNotOpen
	case <-ctx.Done():
		return ctx.Err()
	}
	err := <-w.result
	var pe writePanic
	if errors.As(err, &pe) {
		panic(pe.value) // in the caller's goroutine, as without the writer
	}
	return err
}

// writePanic carries a write function's panic from the writer back to its caller.
type writePanic struct{ value any }

func (p writePanic) Error() string { return fmt.Sprint("store write panicked: ", p.value) }

// run calls a write function, turning its panic into an error that rolls the transaction
// back; update panics with it again in the caller's goroutine.
func run(fn func(txn) error, tx *bolt.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = writePanic{r}
		}
	}()
	return fn(boltTxn{tx})
}

// writer commits the writes as they come, in groups of what is waiting.
func (b *boltBackend) writer() {
	defer close(b.done)
	for {
		var first boltWrite
		select {
		case first = <-b.writes:
		case <-b.stop:
			return
		}
		group := []boltWrite{first}
	drain:
		for len(group) < maxGroup {
			select {
			case w := <-b.writes:
				group = append(group, w)
			default:
				break drain
			}
		}
		b.commit(group)
	}
}

// commit runs group in one transaction. When a write fails, the group is rolled back and
// committed again without it; each failed write then runs alone, after the rest.
func (b *boltBackend) commit(group []boltWrite) {
	if len(group) == 1 {
		group[0].result <- b.solo(group[0].fn)
		return
	}
	var failed []boltWrite
	for len(group) > 0 {
		bad := -1
		err := b.db.Update(func(tx *bolt.Tx) error {
			for i, w := range group {
				if err := run(w.fn, tx); err != nil {
					bad = i
					return errSkipGroup
				}
			}
			return nil
		})
		if bad < 0 {
			b.commits.Add(1)
			for _, w := range group {
				w.result <- err // nil, or the commit's own failure, which is everyone's
			}
			break
		}
		failed = append(failed, group[bad])
		group = append(group[:bad:bad], group[bad+1:]...)
	}
	for _, w := range failed {
		w.result <- b.solo(w.fn)
	}
}

func (b *boltBackend) solo(fn func(txn) error) error {
	err := b.db.Update(func(tx *bolt.Tx) error { return run(fn, tx) })
	if err == nil {
		b.commits.Add(1)
	}
	return err
}

func (b *boltBackend) close() error {
	b.once.Do(func() { close(b.stop) })
	<-b.done
	return b.db.Close()
}

type boltTxn struct{ tx *bolt.Tx }

func (t boltTxn) bucket(name []byte) bucket { return boltBucket{t.tx.Bucket(name)} }

// getShared needs no lock: bbolt has one writer at a time.
func (t boltTxn) getShared(b, key []byte) []byte { return t.tx.Bucket(b).Get(key) }

type boltBucket struct{ b *bolt.Bucket }

func (b boltBucket) Get(key []byte) []byte         { return b.b.Get(key) }
func (b boltBucket) Put(key, value []byte) error   { return b.b.Put(key, value) }
func (b boltBucket) Delete(key []byte) error       { return b.b.Delete(key) }
func (b boltBucket) NextSequence() (uint64, error) { return b.b.NextSequence() }
func (b boltBucket) Sequence() uint64              { return b.b.Sequence() }
func (b boltBucket) SetSequence(n uint64) error    { return b.b.SetSequence(n) }

// Scan walks bbolt's cursor directly: k and v are valid only during fn, and fn must not
// write to the bucket it scans (collect the keys, write after).
func (b boltBucket) Scan(prefix []byte, fn func(k, v []byte) bool) error {
	c := b.b.Cursor()
	k, v := c.First()
	if prefix != nil {
		k, v = c.Seek(prefix)
	}
	for ; k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if !fn(k, v) {
			return nil
		}
	}
	return nil
}
