package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func openBolt(t *testing.T) (*Store, *boltBackend) {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, s.kv.(*boltBackend)
}

// A burst of writes commits in groups, one fsync per group rather than per write: 200 writes
// that queue while the writer is busy take fewer than 200 commits, and every one is there.
func TestABurstOfWritesCommitsInGroups(t *testing.T) {
	s, b := openBolt(t)
	const n = 200
	var started atomic.Int32
	release := make(chan struct{})
	go func() {
		s.update(context.Background(), func(tx txn) error {
			<-release // hold the writer while the burst queues behind it
			return nil
		})
	}()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started.Add(1)
			if err := s.update(context.Background(), func(tx txn) error {
				return tx.bucket(bucketMeta).Put([]byte(fmt.Sprintf("burst-%03d", i)), []byte("x"))
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	for started.Load() < n {
		runtime.Gosched() // until the whole burst has started
	}
	before := b.commits.Load()
	close(release)
	wg.Wait()
	if commits := b.commits.Load() - before; commits >= n {
		t.Errorf("%d writes took %d commits, want fewer: they were not grouped", n, commits)
	}
	s.view(context.Background(), func(tx txn) error {
		for i := range n {
			if tx.bucket(bucketMeta).Get([]byte(fmt.Sprintf("burst-%03d", i))) == nil {
				t.Errorf("write %d is missing", i)
			}
		}
		return nil
	})
}

// A write that fails inside a group undoes nothing of the others and gets its own error; a
// check-and-set in a group is decided as if the writes were committed one by one: of 50
// writers that each put a key only when it is absent, exactly one succeeds.
func TestAFailedWriteInAGroupLeavesTheOthers(t *testing.T) {
	s, _ := openBolt(t)
	taken := errors.New("taken")
	var wg sync.WaitGroup
	var won atomic.Int32
	var lost atomic.Int32
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.update(context.Background(), func(tx txn) error {
				b := tx.bucket(bucketMeta)
				if err := b.Put([]byte(fmt.Sprintf("mine-%02d", i)), []byte("x")); err != nil {
					return err
				}
				if b.Get([]byte("the-lock")) != nil {
					return taken // after a write of its own: the group must roll it back
				}
				return b.Put([]byte("the-lock"), []byte(fmt.Sprint(i)))
			})
			switch {
			case err == nil:
				won.Add(1)
			case errors.Is(err, taken):
				lost.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 || lost.Load() != 49 {
		t.Fatalf("%d won and %d lost the lock, want 1 and 49", won.Load(), lost.Load())
	}
	s.view(context.Background(), func(tx txn) error {
		winner := string(tx.bucket(bucketMeta).Get([]byte("the-lock")))
		for i := range 50 {
			got := tx.bucket(bucketMeta).Get([]byte(fmt.Sprintf("mine-%02d", i))) != nil
			if want := fmt.Sprint(i) == winner; got != want {
				t.Errorf("writer %d's own key present = %v, want %v (winner %s): a failed write's effects must be rolled back, a successful one's kept", i, got, want, winner)
			}
		}
		return nil
	})
}
