package executor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

func TestTransientTellsARestartingServerFromARefusal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, refused := http.Get("http://" + addr + "/")
	for _, c := range []struct {
		err  error
		want bool
	}{
		{refused, true},
		{fmt.Errorf("GET /jobs: %w", syscall.ECONNRESET), true},
		{MarkTransient(errors.New("salt-api answered 503")), true},
		{errors.New("salt-api answered 400: bad request"), false},
		{fmt.Errorf("wrapped: %w", context.Canceled), false},
		{fmt.Errorf("GET /jobs: %w", context.DeadlineExceeded), false},
		{MarkTransient(fmt.Errorf("GET /jobs: client timeout: %w", context.DeadlineExceeded)), true},
		{nil, false},
	} {
		if got := Transient(c.err); got != c.want {
			t.Errorf("Transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

func TestRetryFollowsAServerThatComesBack(t *testing.T) {
	var notices []time.Duration
	calls := 0
	err := Retry(context.Background(), Backoff{Min: time.Millisecond, Max: 2 * time.Millisecond},
		func(down time.Duration, err error) { notices = append(notices, down) },
		func(context.Context) error {
			calls++
			if calls < 4 {
				return syscall.ECONNREFUSED
			}
			return nil
		})
	if err != nil || calls != 4 || len(notices) != 3 {
		t.Fatalf("err %v after %d calls and %d notices; want success on the 4th call after 3 notices", err, calls, len(notices))
	}
}

func TestRetryStopsAtARealErrorAndAtTheDeadline(t *testing.T) {
	calls := 0
	bad := errors.New("state file not found")
	if err := Retry(context.Background(), DefaultBackoff, nil, func(context.Context) error { calls++; return bad }); !errors.Is(err, bad) || calls != 1 {
		t.Fatalf("a request error: %v after %d calls; want it at once", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls = 0
	err := Retry(ctx, Backoff{Min: time.Millisecond, Max: time.Millisecond}, nil, func(context.Context) error {
		calls++
		if calls == 3 {
			cancel()
		}
		return syscall.ECONNREFUSED
	})
	if !errors.Is(err, syscall.ECONNREFUSED) || calls != 3 {
		t.Fatalf("at the deadline: %v after %d calls; want the last connection error after 3", err, calls)
	}
}

func TestAnUnknownOutcomeIsNeitherRolledBackNorApplied(t *testing.T) {
	e := Unknown("the 3 states of job J on eos-minion", "salt-run jobs.lookup_jid J", errors.New("salt-api not answering for 2m0s"))
	if !errors.Is(e, ErrOutcomeUnknown) {
		t.Fatal("an UnknownError is not ErrOutcomeUnknown")
	}
	want := "outcome unknown: salt-api not answering for 2m0s; the 3 states of job J on eos-minion may have been applied"
	if e.Message() != want {
		t.Fatalf("Message() = %q, want %q", e.Message(), want)
	}
}

func TestRunnerNeverRollsBackAnUnknownOutcome(t *testing.T) {
	lost := Unknown("the 2 states of job J on eos-minion", "salt-run jobs.lookup_jid J", errors.New("salt-api not answering for 2m0s"))
	var calls []string
	r, err := NewRunner(RunnerConfig{Rollback: RollbackAll, Layers: []Layer{
		&recLayer{name: Salt, calls: &calls, failWith: fmt.Errorf("following job J: %w", lost)},
		&recLayer{name: Terraform, calls: &calls},
	}})
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := r.Plan(context.Background(), spec())
	calls = nil
	res := r.Apply(context.Background(), plan, nil, Observe(func(Event) {}, nil))
	if len(calls) != 1 || calls[0] != "apply salt" {
		t.Errorf("calls = %v, want only the Salt apply: no rollback, no later layer", calls)
	}
	s := res.Layers[0]
	if !res.Failed || !res.Unknown || s.Status != ResultUnknown || s.Check != "salt-run jobs.lookup_jid J" || s.RolledBack {
		t.Errorf("result %+v, salt %+v; want an unknown Salt layer with its check command", res, s)
	}
	if res.Layers[1].Status != ResultNotStarted {
		t.Errorf("terraform = %s, want not started", res.Layers[1].Status)
	}
}
