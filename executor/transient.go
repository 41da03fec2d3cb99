package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"syscall"
	"time"
)

// transientError marks an error as one a server restart causes (see MarkTransient).
type transientError struct{ err error }

func (e transientError) Error() string { return e.err.Error() }
func (e transientError) Unwrap() error { return e.err }

// MarkTransient marks err as transient for Transient: a layer's client uses it for answers
// that mean "the server is restarting" but are not connection errors, such as a proxy's 502,
// 503 or 504, or salt-api's 401 for a token the restarted master no longer knows.
func MarkTransient(err error) error {
	if err == nil {
		return nil
	}
	return transientError{err}
}

// Transient reports whether err is what a server that is restarting or briefly unreachable
// causes: a refused or reset connection, a connection cut mid-answer, a request that timed out
// on the network, or an error marked with MarkTransient. A request error, a refusal by a
// server that answered, or a cancelled context is not transient.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	// A mark wins over what it wraps: an HTTP client's own time-out wraps DeadlineExceeded,
	// and a layer marks it when it means a server holding requests while it restarts.
	var te transientError
	if errors.As(err, &te) {
		return true
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// Backoff is the wait between attempts while a server does not answer: it starts at Min,
// doubles up to Max, with a quarter of jitter so replicas do not retry in step.
type Backoff struct{ Min, Max time.Duration }

// DefaultBackoff is what layers use while a server restarts: half a second, up to ten.
var DefaultBackoff = Backoff{Min: 500 * time.Millisecond, Max: 10 * time.Second}

// Delay is the wait before attempt n (0 for the first retry).
func (b Backoff) Delay(n int) time.Duration {
	d := b.Min
	for i := 0; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return d - time.Duration(rand.Int64N(int64(d)/4+1))
}

// Retry calls fn until it returns nil or an error that is not Transient, or ctx ends. While
// fn keeps failing transiently, notice (when not nil) is called after each failure with how
// long the server has not been answering and the last error, so the layer can tell people
// ("salt-api not answering for 40 s, retrying"). When ctx ends first, the error says for how
// long and wraps the last failure. fn must be safe to repeat: a read, or a submission the
// server deduplicates.
func Retry(ctx context.Context, b Backoff, notice func(down time.Duration, err error), fn func(context.Context) error) error {
	var first time.Time
	for n := 0; ; n++ {
		err := fn(ctx)
		if err == nil || !Transient(err) {
			return err
		}
		if first.IsZero() {
			first = time.Now()
		}
		down := time.Since(first)
		if notice != nil {
			notice(down, err)
		}
		t := time.NewTimer(b.Delay(n))
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("not answering for %s: %w", down.Round(time.Second), err)
		case <-t.C:
		}
	}
}
