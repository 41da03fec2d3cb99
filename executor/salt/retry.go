package salt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/eosbot/eos/executor"
)

// How the layer rides out a salt-api or Salt master restart (see doc.go).
const (
	// dryRetry bounds how long a plan or drift check keeps retrying a salt-api that does not
	// answer: someone waits for its preview, and a wrong URL must not hang it for the whole
	// layer timeout.
	dryRetry = 30 * time.Second
	// noticeEvery is the least time between two notices in a run's progress.
	noticeEvery = 5 * time.Second
	// slowAnswer is how long a look at /jobs may take before it counts as the master being
	// away: salt-api answers it from the job cache in milliseconds otherwise.
	slowAnswer = 10 * time.Second
	// waitNotice is how long a job may go without a state or a return before the progress
	// says which minions it waits for, and how often it says so again.
	waitNotice = 30 * time.Second
)

// retry calls fn until it succeeds or fails other than transiently (executor.Transient), and
// starts no new attempt once the run's bound has passed: the layer's timeout for an apply,
// dryRetry for a dry run, and ctx's deadline for both. The bound ends the retrying, not an
// attempt under way, which only ctx and HTTPTimeout bound, so that a slow but answering
// master is not cut short. While it retries, w's notice (when set) hears "salt-api not
// answering for 40 s, retrying"; outage (when set) is called after each transient failure.
func (l *Layer) retry(ctx context.Context, test bool, w *watch, outage func(time.Duration, error), fn func(context.Context) error) error {
	limit := l.timeout
	if test {
		limit = min(l.dryRetry, l.timeout)
	}
	return l.retryUntil(ctx, l.now().Add(limit), w, outage, fn)
}

// retryUntil is retry with the bound given: no attempt starts after until.
func (l *Layer) retryUntil(ctx context.Context, until time.Time, w *watch, outage func(time.Duration, error), fn func(context.Context) error) error {
	rctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	var last error
	err := executor.Retry(rctx, l.backoff, func(down time.Duration, err error) {
		last = err
		executor.Log(ctx, l.log).Warn("salt-api is not answering; retrying", "for", down.Round(time.Second), "err", err)
		if outage != nil {
			outage(down, err)
		}
		if w != nil && w.notice != nil {
			w.notice(outageNotice(down, err), false)
		}
	}, func(context.Context) error { return fn(ctx) })
	if err == nil && last != nil && w != nil && w.notice != nil {
		w.notice(who(last)+" answering again", true)
	}
	return err
}

// read sends lowstate chunks that are safe to repeat (a state file write, test.ping,
// show_low_sls, key.list_all), retrying while salt-api or the master restarts.
func (l *Layer) read(ctx context.Context, test bool, w *watch, chunks ...map[string]any) ([]json.RawMessage, error) {
	var ret []json.RawMessage
	err := l.retry(ctx, test, w, nil, func(ctx context.Context) error {
		var err error
		ret, err = l.api.lowstate(ctx, chunks...)
		return err
	})
	return ret, err
}

// who names what does not answer: salt-api itself, or the Salt master behind it. salt-api
// (CherryPy) answers 503 "Salt Master is not available." or "Message timed out" while its
// master is down, and 504 when the master did not answer in time; a proxy's 502, 503 or
// 504 means salt-api is away.
func who(err error) string {
	var se *statusError
	if errors.As(err, &se) && (se.code == http.StatusServiceUnavailable || se.code == http.StatusGatewayTimeout) &&
		(se.cherrypy || strings.Contains(se.body, "Salt Master")) {
		return "the Salt master"
	}
	return "salt-api"
}

// outageNotice is the progress notice while salt-api or the master does not answer.
func outageNotice(down time.Duration, err error) string {
	if down < time.Second {
		return who(err) + " not answering, retrying"
	}
	return fmt.Sprintf("%s not answering for %s, retrying", who(err), roughly(down))
}

// roughly rounds a wait for people: "40 s" under a minute, "2 min" under an hour.
func roughly(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	default:
		return fmt.Sprintf("%d h %d min", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
}

// notSent reports whether a request certainly never reached salt-api: the connection was
// refused or could not be made, so nothing was sent. Any other failure (a reset after
// sending, a timeout, a proxy's 502) leaves open whether salt-api acted on it.
func notSent(err error) bool {
	var oe *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &oe) && oe.Op == "dial"
}

// outageError is why Eos could not see a job end: who stopped answering, for how long, and
// the last failure, in a sentence short enough for the run's post.
type outageError struct {
	who  string
	down time.Duration
	err  error
}

func (e *outageError) Error() string {
	last := e.err.Error()
	var oe *net.OpError
	var se *statusError
	switch {
	case errors.As(e.err, &oe) && oe.Err != nil:
		last = oe.Err.Error()
	case errors.As(e.err, &se):
		last = "answered " + se.status
	}
	return fmt.Sprintf("%s not answering for %s (%s)", e.who, roughly(e.down), last)
}

func (e *outageError) Unwrap() error { return e.err }

// newJID chooses a job's id the way the master would (YYYYMMDDhhmmssffffff), so that a
// submission whose answer was lost can be looked for under it: UTC time to the second and six
// random digits in place of the microseconds. Salt uses a passed jid as it is
// (local_cache.prep_jid).
func (l *Layer) newJID() string {
	return l.now().UTC().Format("20060102150405") + fmt.Sprintf("%06d", rand.IntN(1_000_000))
}
