package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgBackend keeps the buckets in one PostgreSQL table. Writes are SERIALIZABLE transactions,
// retried on a serialization failure, so two replicas approving one plan or locking one unit
// at the same moment behave as if one went first: exactly what bbolt's single writer gives.
type pgBackend struct {
	pool    *pgxpool.Pool
	timeout time.Duration
}

// PostgresOptions tunes OpenPostgres; the zero value is the default.
type PostgresOptions struct {
	// Timeout bounds one transaction, retries included (default 30s).
	Timeout time.Duration
	// MaxConns bounds the pool (default 8).
	MaxConns int32
}

// retryPause bounds the pause between two tries of a transaction that lost a serialization
// conflict. The tries go on until the transaction's time-out: a fixed number of retries
// failed plans in a burst, where every transaction that writes an audit line takes the same
// sequence row and most of them lose to one another at first.
const retryPause = 50 * time.Millisecond

// OpenPostgres connects to the database at dsn and brings its schema to this version of Eos
// (migrations.go), creating it on an empty database. It fails, naming the version, on a
// schema newer than this Eos knows.
func OpenPostgres(ctx context.Context, dsn string, opts PostgresOptions) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("store dsn: %w", redactDSN(err, dsn))
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	cfg.MaxConns = 8
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	rp := cfg.ConnConfig.RuntimeParams
	rp["application_name"] = "eos"
	// A process frozen inside a transaction (SIGSTOP, a lost network) must not keep its locks:
	// the server ends such a session, and a new leader's epoch bump proceeds.
	rp["idle_in_transaction_session_timeout"] = "10000"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to the store: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	if err := migrate(cctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{kv: &pgBackend{pool: pool, timeout: opts.Timeout}, kind: "postgres", bodies: newBodyCache()}
	if err := s.indexOpenPlans(cctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("indexing the open plans: %w", err)
	}
	return s, nil
}

// redactDSN keeps a DSN's password out of an error message.
func redactDSN(err error, dsn string) error {
	if cfg, perr := pgx.ParseConfig(dsn); perr == nil && cfg.Password != "" {
		return errors.New(strings.ReplaceAll(err.Error(), cfg.Password, "REDACTED"))
	}
	return err
}

func (p *pgBackend) view(ctx context.Context, fn func(txn) error) error {
	return p.run(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

func (p *pgBackend) update(ctx context.Context, fn func(txn) error) error {
	return p.run(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable}, fn)
}

func (p *pgBackend) close() error { p.pool.Close(); return nil }

// run runs fn as one transaction bounded by ctx and, within it, by the backend's timeout
// (retries included).
func (p *pgBackend) run(ctx context.Context, opts pgx.TxOptions, fn func(txn) error) error {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		err := pgx.BeginTxFunc(ctx, p.pool, opts, func(tx pgx.Tx) error {
			t := &pgTxn{ctx: ctx, tx: tx}
			ferr := fn(t)
			if t.err != nil {
				return t.err
			}
			return ferr
		})
		if !retryable(err) {
			return err
		}
		// Jittered backoff: replicas that collided should not collide again in step.
		d := time.Duration(1+rand.IntN(4*min(attempt+1, int(retryPause/(4*time.Millisecond))))) * time.Millisecond
		select {
		case <-ctx.Done():
			return fmt.Errorf("store transaction: %w (after %d serialization retries)", ctx.Err(), attempt)
		case <-time.After(d):
		}
	}
}

// retryable reports a serialization failure or deadlock: the transaction did nothing and the
// same work may run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// pgTxn is one PostgreSQL transaction. The first failed statement aborts the transaction on
// the server; err keeps it, later statements do nothing, and run returns it.
type pgTxn struct {
	ctx context.Context
	tx  pgx.Tx
	err error
}

func (t *pgTxn) fail(err error) {
	if t.err == nil {
		t.err = err
	}
}

func (t *pgTxn) bucket(name []byte) bucket { return pgBucket{t: t, name: string(name)} }

func (t *pgTxn) getShared(b, key []byte) []byte {
	return t.get("SELECT v FROM eos_kv WHERE bucket = $1 AND k = $2 FOR SHARE", string(b), key)
}

func (t *pgTxn) get(sql, b string, key []byte) []byte {
	if t.err != nil {
		return nil
	}
	var v []byte
	err := t.tx.QueryRow(t.ctx, sql, b, key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		t.fail(fmt.Errorf("reading %s %q: %w", b, key, err))
		return nil
	}
	return v
}

type pgBucket struct {
	t    *pgTxn
	name string
}

func (b pgBucket) Get(key []byte) []byte {
	return b.t.get("SELECT v FROM eos_kv WHERE bucket = $1 AND k = $2", b.name, key)
}

func (b pgBucket) exec(what string, key []byte, sql string, args ...any) error {
	if b.t.err != nil {
		return b.t.err
	}
	if _, err := b.t.tx.Exec(b.t.ctx, sql, args...); err != nil {
		b.t.fail(fmt.Errorf("%s %s %q: %w", what, b.name, key, err))
	}
	return b.t.err
}

func (b pgBucket) Put(key, value []byte) error {
	return b.exec("writing", key, `INSERT INTO eos_kv (bucket, k, v) VALUES ($1, $2, $3)
		ON CONFLICT (bucket, k) DO UPDATE SET v = EXCLUDED.v`, b.name, key, value)
}

func (b pgBucket) Delete(key []byte) error {
	return b.exec("deleting", key, "DELETE FROM eos_kv WHERE bucket = $1 AND k = $2", b.name, key)
}

func (b pgBucket) NextSequence() (uint64, error) {
	if b.t.err != nil {
		return 0, b.t.err
	}
	var n int64
	err := b.t.tx.QueryRow(b.t.ctx, `INSERT INTO eos_seq (bucket, n) VALUES ($1, 1)
		ON CONFLICT (bucket) DO UPDATE SET n = eos_seq.n + 1 RETURNING n`, b.name).Scan(&n)
	if err != nil {
		b.t.fail(fmt.Errorf("next sequence of %s: %w", b.name, err))
		return 0, b.t.err
	}
	return uint64(n), nil
}

func (b pgBucket) Sequence() uint64 {
	if b.t.err != nil {
		return 0
	}
	var n int64
	err := b.t.tx.QueryRow(b.t.ctx, "SELECT n FROM eos_seq WHERE bucket = $1", b.name).Scan(&n)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		b.t.fail(fmt.Errorf("sequence of %s: %w", b.name, err))
	}
	return uint64(n)
}

func (b pgBucket) SetSequence(n uint64) error {
	return b.exec("setting the sequence of", nil, `INSERT INTO eos_seq (bucket, n) VALUES ($1, $2)
		ON CONFLICT (bucket) DO UPDATE SET n = EXCLUDED.n`, b.name, int64(n))
}

// Scan reads the matching rows first and then calls fn: one statement, and fn may use the
// transaction for other reads.
func (b pgBucket) Scan(prefix []byte, fn func(k, v []byte) bool) error {
	if b.t.err != nil {
		return b.t.err
	}
	sql, args := "SELECT k, v FROM eos_kv WHERE bucket = $1 ORDER BY k", []any{b.name}
	if len(prefix) > 0 {
		sql, args = "SELECT k, v FROM eos_kv WHERE bucket = $1 AND k >= $2 ORDER BY k", []any{b.name, prefix}
		if end := prefixEnd(prefix); end != nil {
			sql, args = "SELECT k, v FROM eos_kv WHERE bucket = $1 AND k >= $2 AND k < $3 ORDER BY k", append(args, end)
		}
	}
	rows, err := b.t.tx.Query(b.t.ctx, sql, args...)
	if err != nil {
		b.t.fail(fmt.Errorf("scanning %s: %w", b.name, err))
		return b.t.err
	}
	type kv struct{ k, v []byte }
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (kv, error) {
		var x kv
		return x, r.Scan(&x.k, &x.v)
	})
	if err != nil {
		b.t.fail(fmt.Errorf("scanning %s: %w", b.name, err))
		return b.t.err
	}
	for _, x := range all {
		if !fn(x.k, x.v) {
			break
		}
	}
	return nil
}

// prefixEnd is the smallest key greater than every key starting with prefix, nil when there
// is none (a prefix of 0xff bytes).
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
