package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store/pgtest"
)

// The conformance suite: every test that calls conform runs once on each backend, bbolt and
// the real PostgreSQL of the test environment, so the two keep exactly the same behaviour.

// fresh opens a new, empty store of one backend; reopen opens the same data again (after the
// first was closed, for bbolt).
type fresh func(t *testing.T) (s *Store, reopen func() (*Store, error))

func freshBolt(t *testing.T) (*Store, func() (*Store, error)) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "eos.db")
	s, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, func() (*Store, error) { return Open(path, time.Second) }
}

func freshPostgres(t *testing.T) (*Store, func() (*Store, error)) {
	t.Helper()
	dsn := pgtest.Database(t)
	open := func() (*Store, error) { return OpenPostgres(context.Background(), dsn, PostgresOptions{}) }
	s, err := open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, open
}

// conform runs fn as a subtest per backend; fn opens as many fresh stores as it needs.
func conform(t *testing.T, fn func(t *testing.T, open fresh)) {
	t.Run("bbolt", func(t *testing.T) { fn(t, freshBolt) })
	t.Run("postgres", func(t *testing.T) { fn(t, freshPostgres) })
}

// conformEach is conform for a test that needs one fresh store.
func conformEach(t *testing.T, fn func(t *testing.T, s *Store)) {
	conform(t, func(t *testing.T, open fresh) {
		s, _ := open(t)
		fn(t, s)
	})
}
