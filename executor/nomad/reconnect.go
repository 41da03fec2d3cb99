package nomad

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// noticeEvery is how often, at most, a wait tells people that Nomad is not answering.
const noticeEvery = 5 * time.Second

// retrier repeats calls to the agent that fail because it does not answer (an upgrade, a
// systemd restart), with executor.DefaultBackoff, until the context of the wait ends. While it
// waits it posts "Nomad not answering for 40 s, retrying" (at most every noticeEvery). One
// retrier follows one job's wait, so an outage that spans several calls is timed from its
// start. A nil emitter is allowed.
type retrier struct {
	emit *emitter
	// down is set from a failed call the agent did not answer until the next call it answers.
	down       bool
	since      time.Time
	lastErr    error
	lastNotice time.Time
}

func newRetrier(emit *emitter) *retrier { return &retrier{emit: emit} }

// do calls fn until it succeeds, fails for a reason other than the agent not answering, or
// ctx ends. It returns a *lostError when ctx ended while the agent was not answering: what
// was handed to Nomad before may have finished or not.
func (r *retrier) do(ctx context.Context, fn func(context.Context) error) error {
	err := executor.Retry(ctx, executor.DefaultBackoff, r.notice, func(c context.Context) error {
		err := restarting(fn(c))
		switch {
		case err == nil:
			r.down = false
		case executor.Transient(err):
			if !r.down {
				r.down, r.since = true, time.Now()
			}
			r.lastErr = err
		case c.Err() != nil:
			// A request cut short by the end of the wait says nothing about the agent.
		default:
			r.down = false
		}
		return err
	})
	if err != nil && r.down {
		return &lostError{down: time.Since(r.since), err: r.lastErr}
	}
	return err
}

func (r *retrier) notice(time.Duration, error) {
	if r.emit == nil || (!r.lastNotice.IsZero() && time.Since(r.lastNotice) < noticeEvery) {
		return
	}
	r.lastNotice = time.Now()
	msg := "Nomad not answering, retrying"
	if s := int(time.Since(r.since).Seconds()); s > 0 {
		msg = fmt.Sprintf("Nomad not answering for %d s, retrying", s)
	}
	r.emit.notice(msg)
}

// restarting marks as transient the answers an agent gives while it starts: a cluster
// without a leader yet or one that has not caught up ("Not ready to serve consistent
// reads"), a client without its servers, a proxy in front of it that cannot
// reach it.
func restarting(err error) error {
	var ure api.UnexpectedResponseError
	if !errors.As(err, &ure) {
		return err
	}
	switch ure.StatusCode() {
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return executor.MarkTransient(err)
	case http.StatusInternalServerError:
		body := strings.ToLower(ure.Body())
		for _, s := range []string{"no cluster leader", "not ready to serve consistent reads", "no servers", "no known servers", "rpc error: eof", "connection refused"} {
			if strings.Contains(body, s) {
				return executor.MarkTransient(err)
			}
		}
	}
	return err
}

// lostError is a wait that ended while the agent was not answering.
type lostError struct {
	down time.Duration
	err  error
}

func (e *lostError) Error() string {
	cause := e.err
	var ue *url.Error
	if errors.As(cause, &ue) && ue.Err != nil {
		cause = ue.Err // the request's URL says nothing to people
	}
	return fmt.Sprintf("Nomad stopped answering %d s ago and was not back in time (%v)", int(e.down.Seconds()), cause)
}

func (e *lostError) Unwrap() error { return e.err }

// unknownIfLost turns err into an executor.UnknownError when the agent stopped answering
// after Eos handed it applied (a registered job version, a stop): Eos cannot tell how that
// ended, and check is the command that can. Other errors are returned as they are.
func unknownIfLost(err error, applied, check string) error {
	var lost *lostError
	if !errors.As(err, &lost) {
		return err
	}
	return executor.Unknown(applied, check, lost)
}

// checkCommand is the nomad command that shows how a deployment (or, without one, a job)
// ended.
func (l *Layer) checkCommand(jobID, deployID string) string {
	ns := ""
	if l.namespace != "" {
		ns = " -namespace=" + l.namespace
	}
	if deployID != "" {
		return "nomad deployment status" + ns + " " + deployID
	}
	return "nomad job status" + ns + " " + jobID
}
