package leader

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// Why a term ended, for errors.Is on Term.Err and Term.Valid.
var (
	// ErrResigned: Resign was called.
	ErrResigned = errors.New("leadership resigned")
	// ErrSessionLost: a heartbeat failed, so the session holding the lock may be gone (ended by
	// the server or an administrator, PostgreSQL restarted, network lost).
	ErrSessionLost = errors.New("leader session lost")
	// ErrLeaseExpired: no heartbeat succeeded within Lease − Heartbeat, so the server may
	// already have ended the session and another replica may lead.
	ErrLeaseExpired = errors.New("leader lease ran out locally")
)

// Term is one period of leadership. It owns the connection holding the lock; a goroutine sends
// the heartbeats on it until the term ends.
type Term struct {
	conn      *pgx.Conn
	key       int64
	heartbeat time.Duration
	validity  time.Duration // Lease − Heartbeat
	log       *slog.Logger

	// base is a monotonic clock reading; validUntil is the end of the local lease, in
	// nanoseconds after base. Valid reads it without a lock.
	base       time.Time
	validUntil atomic.Int64

	resign     chan struct{}
	resignOnce sync.Once
	done       chan struct{}
	err        error // written once before done is closed

	// frozen is a test hook simulating SIGSTOP: while it is held the heartbeat goroutine
	// stops at its next wake-up, without touching the connection or the clock.
	frozen sync.Mutex
}

// newTerm starts the heartbeats of a term whose lock was taken by a query sent at sent.
func newTerm(conn *pgx.Conn, cfg Config, sent time.Time) *Term {
	t := &Term{
		conn:      conn,
		key:       cfg.Key,
		heartbeat: cfg.Heartbeat,
		validity:  cfg.Lease - cfg.Heartbeat,
		log:       cfg.Logger.With("pid", conn.PgConn().PID()),
		base:      sent,
		resign:    make(chan struct{}),
		done:      make(chan struct{}),
	}
	t.validUntil.Store(int64(t.validity))
	go t.run()
	return t
}

// Done is closed once leadership is lost; by then the connection is closed.
func (t *Term) Done() <-chan struct{} { return t.done }

// Err says why the term ended (wrapping ErrResigned, ErrSessionLost or ErrLeaseExpired), or nil
// while it lasts.
func (t *Term) Err() error {
	select {
	case <-t.done:
		return t.err
	default:
		return nil
	}
}

// Valid returns nil only while the local lease holds: the term has not ended and the last
// successful heartbeat was sent less than Lease − Heartbeat ago, by the monotonic clock. It
// makes no I/O, so a process waking from a long pause learns it may no longer lead before it
// touches the network. Call it before every action only the leader may take.
func (t *Term) Valid() error {
	if err := t.Err(); err != nil {
		return err
	}
	if left := t.remaining(); left <= 0 {
		return fmt.Errorf("%w: no heartbeat for %s", ErrLeaseExpired, t.validity-left)
	}
	return nil
}

// Resign releases the lock and closes the connection, then returns; Done is closed by then.
// It is safe to call more than once and after the term has ended.
func (t *Term) Resign() {
	t.resignOnce.Do(func() { close(t.resign) })
	<-t.done
}

// remaining is how long the local lease still holds.
func (t *Term) remaining() time.Duration {
	return time.Duration(t.validUntil.Load()) - time.Since(t.base)
}

// run sends a heartbeat every Heartbeat until the term ends.
func (t *Term) run() {
	tick := time.NewTicker(t.heartbeat)
	defer tick.Stop()
	lapse := time.NewTimer(t.remaining())
	defer lapse.Stop()
	for {
		resigned := false
		select {
		case <-t.resign:
			resigned = true
		case <-tick.C:
		case <-lapse.C:
		}
		t.frozen.Lock() // blocks only while a test holds the freeze hook
		t.frozen.Unlock()

		if resigned {
			t.end(ErrResigned)
			return
		}
		// After a pause the clock is checked before the network.
		if left := t.remaining(); left <= 0 {
			t.end(fmt.Errorf("%w: no heartbeat for %s", ErrLeaseExpired, t.validity-left))
			return
		}
		if err := t.beat(); err != nil {
			t.end(err)
			return
		}
		lapse.Reset(t.remaining())
	}
}

// beat runs one heartbeat; it may take until the local lease ends, no longer. On success the
// lease is renewed from the moment the heartbeat was sent: the server's idle clock cannot have
// started earlier than that.
func (t *Term) beat() error {
	sent := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), t.remaining())
	defer cancel()
	_, err := t.conn.Exec(ctx, "SELECT 1")
	if err != nil {
		if t.remaining() <= 0 {
			return fmt.Errorf("%w: heartbeat did not answer in time: %w", ErrLeaseExpired, err)
		}
		return fmt.Errorf("%w: heartbeat: %w", ErrSessionLost, err)
	}
	t.validUntil.Store(int64(sent.Sub(t.base) + t.validity))
	return nil
}

// end releases the lock (if the session still answers), closes the connection, records why
// and closes done.
func (t *Term) end(why error) {
	ctx, cancel := context.WithTimeout(context.Background(), t.heartbeat)
	defer cancel()
	if errors.Is(why, ErrResigned) && !t.conn.IsClosed() {
		if _, err := t.conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", t.key); err != nil {
			t.log.Debug("releasing the leader lock; closing the session releases it too", "err", err)
		}
	}
	t.conn.Close(ctx)
	t.err = why
	if errors.Is(why, ErrResigned) {
		t.log.Info("leadership resigned")
	} else {
		t.log.Warn("leadership lost", "err", why)
	}
	close(t.done)
}
