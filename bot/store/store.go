// Package store owns Eos's database: pending plans and their approvals, runs, locks, the
// declared (deployed) state of every service, drift history, digest marks, the chat catch-up
// cursors, the pending checks of runs whose outcome Eos did not see, and the append-only audit
// log. Everything that must survive a restart or a
// failover lives here.
//
// It has two backends behind one small transactional key-value interface (kv.go): a bbolt
// file, the embedded default for one process, and PostgreSQL, which several replicas share
// (kv_postgres.go). Every read-modify-write is one transaction (serializable on PostgreSQL),
// so check-and-set (approve a plan, take a lock, start a run) is atomic across goroutines and
// processes, and every write is fenced by the leadership epoch (fence.go). A plan's body (its
// spec and layer plans) is stored once, apart from its state, which every step of a
// conversation rewrites (planbody.go). It imports adapters and executor for the plain data it
// stores, never bot.
package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
)

var (
	bucketPlans    = []byte("plans")
	bucketPosts    = []byte("posts") // platform/channel/post id → plan id
	bucketRuns     = []byte("runs")
	bucketLocks    = []byte("locks")
	bucketDeployed = []byte("deployed")
	bucketAudit    = []byte("audit")
	allBuckets     = [][]byte{bucketPlans, bucketPosts, bucketRuns, bucketLocks, bucketDeployed, bucketAudit}
)

// ErrNotFound is returned when a plan, run or record does not exist.
var ErrNotFound = errors.New("not found")

// HeldError is Open's answer when another process holds the bbolt file (and kept it for the
// whole wait): the operator's tools then ask that process instead.
type HeldError struct {
	Path   string
	Waited time.Duration
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("opening %s: another Eos process holds it (waited %s); replicas share a PostgreSQL store instead (README: Running more than one Eos)", e.Path, e.Waited)
}

// Store is Eos's database, on bbolt (Open) or PostgreSQL (OpenPostgres).
type Store struct {
	kv   backend
	kind string // "bbolt" or "postgres", for logs and /healthz
	// bodies are the plan bodies decoded last (bodycache.go).
	bodies *bodyCache

	// epoch is the leadership this Store writes for (0: unfenced); see fence.go.
	epoch    atomic.Uint64
	onFenced atomic.Pointer[func(error)]
}

// initialMmap is the address space bbolt maps for the file from the start (not disk: the file
// grows as before). bbolt maps twice the file's size and, when the file outgrows the map,
// maps it again: every reader waits meanwhile and the writer copies out every node it holds,
// which in a burst into a new file cost about 2 % of the CPU and a stall per doubling
// (docs/PERFORMANCE.md, row 2b (h33b)). A file under this size is never remapped.
const initialMmap = 64 << 20

// Open opens (or creates) the bbolt file. A second Eos on the same file fails after timeout
// with a message saying so, instead of hanging.
func Open(path string, timeout time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating data directory: %w", err)
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, InitialMmapSize: initialMmap})
	if errors.Is(err, bolt.ErrTimeout) {
		return nil, &HeldError{Path: path, Waited: timeout}
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range allBuckets {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("preparing %s: %w", path, err)
	}
	s := &Store{kv: newBoltBackend(db), kind: "bbolt", bodies: newBodyCache()}
	if err := s.indexOpenPlans(context.Background()); err != nil {
		s.kv.close()
		return nil, fmt.Errorf("indexing the open plans of %s: %w", path, err)
	}
	return s, nil
}

// Kind is "bbolt" or "postgres".
func (s *Store) Kind() string { return s.kind }

// Close closes the file or the connections.
func (s *Store) Close() error { return s.kv.close() }

// Writable checks that a write transaction commits, for /healthz. It is not fenced: a
// follower's store is writable too.
func (s *Store) Writable(ctx context.Context) error {
	return s.kv.update(ctx, func(txn) error { return nil })
}

func (s *Store) view(ctx context.Context, fn func(txn) error) error { return s.kv.view(ctx, fn) }
