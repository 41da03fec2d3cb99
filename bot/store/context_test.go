package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store/pgtest"
)

// A transaction asked for with a context already cancelled does not run, on either backend:
// the caller's cancellation reaches the store.
func TestTransactionWithCancelledContextDoesNotRun(t *testing.T) {
	conformEach(t, func(t *testing.T, s *Store) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		ran := false
		fn := func(txn) error { ran = true; return nil }
		if err := s.kv.view(ctx, fn); !errors.Is(err, context.Canceled) || ran {
			t.Errorf("view: err %v, ran %v; want context.Canceled and not run", err, ran)
		}
		if err := s.kv.update(ctx, fn); !errors.Is(err, context.Canceled) || ran {
			t.Errorf("update: err %v, ran %v; want context.Canceled and not run", err, ran)
		}
	})
}

// On PostgreSQL the caller's deadline reaches the database: a transaction waiting for a row
// another one holds gives up when its context's deadline passes, not after the backend's own
// 30-second timeout.
func TestPostgresTransactionEndsAtItsContextsDeadline(t *testing.T) {
	s, err := OpenPostgres(context.Background(), pgtest.Database(t), PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	key := []byte("held")
	if err := s.kv.update(context.Background(), func(tx txn) error { return tx.bucket(bucketMeta).Put(key, []byte("1")) }); err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- s.kv.update(context.Background(), func(tx txn) error {
			if err := tx.bucket(bucketMeta).Put(key, []byte("2")); err != nil { // holds the row lock
				return err
			}
			select {
			case <-holding:
			default:
				close(holding)
			}
			<-release
			return nil
		})
	}()
	<-holding
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.kv.update(ctx, func(tx txn) error {
		tx.getShared(bucketMeta, key) // waits for the row lock
		return nil
	})
	waited := time.Since(start)
	close(release)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		t.Errorf("err %v after %s; want the transaction ended by its context's deadline", err, waited)
	}
	if waited > 10*time.Second {
		t.Errorf("the transaction waited %s: its context's deadline did not reach the database", waited)
	}
	if err := <-held; err != nil {
		t.Errorf("the transaction holding the row: %v", err)
	}
}
