package store

import (
	"bytes"
	"context"
	"fmt"
)

// Copied counts what Copy copied, by bucket.
type Copied map[string]int

// Copy copies every record of src into dst, which must be empty: plans, runs, locks, declared
// state, drift history, digest marks, cursors, message claims and the audit log with its
// numbering, so a team that outgrows one bbolt file moves to PostgreSQL with its history
// (`eos store migrate`). It reads src in one transaction and writes dst in one: dst gets all
// of it or nothing. The leadership epoch is not copied; dst's leaders start their own.
func Copy(ctx context.Context, dst, src *Store) (Copied, error) {
	type bucketData struct {
		name []byte
		seq  uint64
		rows [][2][]byte
	}
	var all []bucketData
	err := src.view(ctx, func(tx txn) error {
		for _, name := range allBuckets {
			if bytes.Equal(name, bucketMeta) {
				continue
			}
			b := tx.bucket(name)
			d := bucketData{name: name, seq: b.Sequence()}
			err := b.Scan(nil, func(k, v []byte) bool {
				d.rows = append(d.rows, [2][]byte{bytes.Clone(k), bytes.Clone(v)})
				return true
			})
			if err != nil {
				return err
			}
			all = append(all, d)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the source store: %w", err)
	}
	copied := Copied{}
	err = dst.update(ctx, func(tx txn) error {
		for _, name := range allBuckets {
			if bytes.Equal(name, bucketMeta) {
				continue
			}
			n := 0
			if err := tx.bucket(name).Scan(nil, func(_, _ []byte) bool { n++; return false }); err != nil {
				return err
			}
			if n > 0 {
				return fmt.Errorf("the destination store is not empty (it has %s): copy into a new database", name)
			}
		}
		for _, d := range all {
			b := tx.bucket(d.name)
			for _, r := range d.rows {
				if err := b.Put(r[0], r[1]); err != nil {
					return err
				}
			}
			if d.seq > 0 {
				if err := b.SetSequence(d.seq); err != nil {
					return err
				}
			}
			copied[string(d.name)] = len(d.rows)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return copied, nil
}
