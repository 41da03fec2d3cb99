package leader

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Short timings for tests: the lease lapses locally 450 ms after the last heartbeat and the
// server ends an idle leader session after 600 ms.
const (
	testLease     = 600 * time.Millisecond
	testHeartbeat = 150 * time.Millisecond
	testRetry     = 50 * time.Millisecond
	// patience bounds every wait; a test that waits longer has failed.
	patience = 10 * time.Second
)

// logBook collects an elector's log lines; they are shown when the test fails.
type logBook struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBook) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// count is how many log lines contain s.
func (b *logBook) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

func (b *logBook) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newElector makes an elector with the test timings; its term, if any, is resigned when the
// test ends.
func newElector(t *testing.T, dsn, name string) (*Elector, *logBook) {
	t.Helper()
	book := &logBook{}
	e, err := New(Config{
		DSN:       dsn,
		Retry:     testRetry,
		Heartbeat: testHeartbeat,
		Lease:     testLease,
		Logger:    slog.New(slog.NewTextHandler(book, &slog.HandlerOptions{Level: slog.LevelDebug})).With("elector", name),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e.mu.Lock()
		term := e.term
		e.mu.Unlock()
		if term != nil {
			term.Resign()
		}
		if t.Failed() {
			t.Logf("log of elector %s:\n%s", name, book)
		}
	})
	return e, book
}

// campaign waits for e to lead.
func campaign(t *testing.T, e *Elector) *Term {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	term, err := e.Campaign(ctx)
	if err != nil {
		t.Fatalf("campaign: %v", err)
	}
	return term
}

type outcome struct {
	term *Term
	err  error
}

// campaignAsync campaigns in the background; the campaign is cancelled when the test ends.
func campaignAsync(t *testing.T, e *Elector) <-chan outcome {
	ctx, cancel := context.WithTimeout(context.Background(), 2*patience)
	ch := make(chan outcome, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		term, err := e.Campaign(ctx)
		ch <- outcome{term, err}
	}()
	t.Cleanup(func() {
		cancel()
		<-finished
	})
	return ch
}

// won waits for a background campaign to succeed.
func won(t *testing.T, ch <-chan outcome, who string) *Term {
	t.Helper()
	select {
	case o := <-ch:
		if o.err != nil {
			t.Fatalf("%s's campaign: %v", who, o.err)
		}
		return o.term
	case <-time.After(patience):
		t.Fatalf("%s did not lead within %s", who, patience)
		return nil
	}
}

// ended waits for term to end and returns why.
func ended(t *testing.T, term *Term, who string) error {
	t.Helper()
	select {
	case <-term.Done():
		return term.Err()
	case <-time.After(patience):
		t.Fatalf("%s's term did not end within %s", who, patience)
		return nil
	}
}

// waitFor polls cond until it holds, failing after patience.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", patience, what)
		}
		time.Sleep(5 * time.Millisecond) // polling interval, not synchronisation
	}
}

// standingBy waits until e has tried the lock at least n more times.
func standingBy(t *testing.T, e *Elector, n int64) {
	t.Helper()
	from := e.attempts.Load()
	waitFor(t, "more lock attempts", func() bool { return e.attempts.Load() >= from+n })
}

// admin connects to dsn for inspecting and meddling with the server.
func admin(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("admin connection: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// holders lists the backends holding the advisory lock key in admin's database.
func holders(t *testing.T, admin *pgx.Conn, key int64) []uint32 {
	t.Helper()
	rows, err := admin.Query(context.Background(), `
		SELECT pid FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND objsubid = 1
		  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		  AND classid = ($1::bigint >> 32)::oid AND objid = ($1::bigint & x'ffffffff'::bigint)::oid`, key)
	if err != nil {
		t.Fatalf("reading pg_locks: %v", err)
	}
	pids, err := pgx.CollectRows(rows, pgx.RowTo[uint32])
	if err != nil {
		t.Fatalf("reading pg_locks: %v", err)
	}
	return pids
}

// pid is the backend holding term's lock.
func pid(term *Term) uint32 { return term.conn.PgConn().PID() }

// freeze stops term's heartbeat goroutine at its next wake-up, as SIGSTOP would stop the
// process, until thaw is called (also when the test ends).
func freeze(t *testing.T, term *Term) (thaw func()) {
	term.frozen.Lock()
	var once sync.Once
	thaw = func() { once.Do(term.frozen.Unlock) }
	t.Cleanup(thaw)
	return thaw
}
