package nomad

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// startingAgent answers GET /v1/job/web with failures status and body until it has failed
// fails times, then with the job.
func startingAgent(t *testing.T, fails int32, status int, body string) (string, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= fails {
			http.Error(w, body, status)
			return
		}
		_, _ = w.Write([]byte(`{"ID":"web","Version":3}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &calls
}

// An agent that answers while it starts ("No cluster leader", a proxy's 503) is waited for,
// and people are told; an agent that refuses the request is not asked again.
func TestStartingAgentIsWaitedFor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		body   string
		calls  int32
		ok     bool
	}{
		{"no leader yet", http.StatusInternalServerError, "No cluster leader", 3, true},
		{"leader not caught up", http.StatusInternalServerError, "Not ready to serve consistent reads", 3, true},
		{"proxy without backend", http.StatusServiceUnavailable, "upstream unavailable", 3, true},
		{"refused", http.StatusForbidden, "Permission denied", 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, calls := startingAgent(t, 2, tc.status, tc.body)
			l, err := New(Config{Address: addr})
			if err != nil {
				t.Fatal(err)
			}
			var events []executor.Event
			emit := newEmitter(func(e executor.Event) { events = append(events, e) }, unitPlan{Service: "web", JobID: "web", Total: 1})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			job, err := l.currentJobRetried(ctx, "web", newRetrier(emit))
			if got := calls.Load(); got != tc.calls {
				t.Errorf("%d calls, want %d", got, tc.calls)
			}
			if !tc.ok {
				if err == nil || !strings.Contains(err.Error(), "Permission denied") {
					t.Errorf("currentJob = %v, %v; want the refusal", job, err)
				}
				return
			}
			if err != nil || deref(job.Version) != 3 {
				t.Fatalf("currentJob = %v, %v; want version 3 once the agent answers", job, err)
			}
			if len(events) != 1 || events[0].Message != "Nomad not answering, retrying" || events[0].Layer != executor.Nomad {
				t.Errorf("events = %+v, want one notice (the next is due after 5 s)", events)
			}
		})
	}
}

// A wait that ends while the agent does not answer says so, and becomes an unknown outcome
// naming what may have been applied and how to check it.
func TestWaitEndingWhileAgentIsAwayIsLost(t *testing.T) {
	t.Parallel()
	addr, _ := startingAgent(t, 1<<30, http.StatusBadGateway, "bad gateway")
	l, err := New(Config{Address: addr, Namespace: "apps"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err = l.currentJobRetried(ctx, "web", newRetrier(nil))
	var lost *lostError
	if !errors.As(err, &lost) || !strings.HasPrefix(err.Error(), "Nomad stopped answering ") {
		t.Fatalf("err = %v, want a lost agent", err)
	}
	var unknown *executor.UnknownError
	u := unknownIfLost(err, "version 3 of job web", l.checkCommand("web", "d1"))
	if !errors.As(u, &unknown) || unknown.Check != "nomad deployment status -namespace=apps d1" || unknown.Applied != "version 3 of job web" {
		t.Errorf("unknown = %+v", u)
	}
	if other := errors.New("deployment failed"); unknownIfLost(other, "x", "y") != other {
		t.Error("an error that is not a lost agent became an unknown outcome")
	}
}
