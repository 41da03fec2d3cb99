package store

import (
	"bytes"

	bolt "go.etcd.io/bbolt"
)

// boltBackend is the embedded store: one file, one writer at a time, every update fsynced.
type boltBackend struct{ db *bolt.DB }

func (b boltBackend) view(fn func(txn) error) error {
	return b.db.View(func(tx *bolt.Tx) error { return fn(boltTxn{tx}) })
}

func (b boltBackend) update(fn func(txn) error) error {
	return b.db.Update(func(tx *bolt.Tx) error { return fn(boltTxn{tx}) })
}

func (b boltBackend) close() error { return b.db.Close() }

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
