package nomad

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An evaluation Nomad cancels because the job already has a blocked one (a write that lands
// while the nodes restart) is followed through that blocked evaluation, which places the
// job's current version once a node is ready; without one, the cancel is the error.
func TestCancelledForAnExistingBlockedEvalFollowsIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		blocked bool
	}{{"blocked evaluation exists", true}, {"none", false}} {
		t.Run(tc.name, func(t *testing.T) {
			var reads atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/v1/evaluation/new":
					_, _ = w.Write([]byte(`{"ID":"new","JobID":"web","Status":"canceled","StatusDescription":"existing blocked evaluation exists for job \"web\""}`))
				case "/v1/job/web/evaluations":
					if tc.blocked {
						_, _ = w.Write([]byte(`[{"ID":"new","JobID":"web","Status":"canceled"},{"ID":"old","JobID":"web","Status":"blocked"}]`))
						return
					}
					_, _ = w.Write([]byte(`[{"ID":"new","JobID":"web","Status":"canceled"}]`))
				case "/v1/evaluation/old":
					// Blocked at first, then placed once a node is ready.
					w.Header().Set("X-Nomad-Index", "7")
					if reads.Add(1) == 1 {
						_, _ = w.Write([]byte(`{"ID":"old","JobID":"web","Status":"blocked"}`))
						return
					}
					_, _ = w.Write([]byte(`{"ID":"old","JobID":"web","Status":"complete"}`))
				default:
					http.NotFound(w, r)
				}
			}))
			t.Cleanup(srv.Close)
			l, err := New(Config{Address: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ev, err := l.waitEval(ctx, "new", newRetrier(nil))
			if !tc.blocked {
				if err == nil || !strings.Contains(err.Error(), "evaluation new canceled: existing blocked evaluation") {
					t.Fatalf("waitEval = %+v, %v; want the cancel", ev, err)
				}
				return
			}
			if err != nil || ev.ID != "old" || ev.Status != "complete" {
				t.Fatalf("waitEval = %+v, %v; want the blocked evaluation, complete", ev, err)
			}
			if got := reads.Load(); got != 2 {
				t.Errorf("blocked evaluation read %d times, want 2 (blocked, then complete)", got)
			}
		})
	}
}
