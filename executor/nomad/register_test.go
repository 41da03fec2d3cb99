package nomad

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"
)

// lossyAgent is an agent whose first registration is accepted but whose answer is lost: it
// closes the connection instead of answering. After that the job reads back as job (404 when
// nil), Nomad's plan of it finds diff, and its evaluations are evals.
type lossyAgent struct {
	registers atomic.Int32
	job       string
	diff      string
}

func (a *lossyAgent) serve(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPut && r.URL.Path == "/v1/jobs":
			if a.registers.Add(1) == 1 {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					_ = conn.Close()
				}
				return
			}
			if a.job != "" {
				http.Error(w, "Enforcing job modify index 0: job exists with conflicting job modify index: 42", http.StatusInternalServerError)
				return
			}
			_, _ = w.Write([]byte(`{"EvalID":"eval-2","JobModifyIndex":43}`))
		case r.URL.Path == "/v1/job/web/plan":
			_, _ = w.Write([]byte(`{"Diff":{"Type":"` + a.diff + `"}}`))
		case r.URL.Path == "/v1/job/web/evaluations":
			_, _ = w.Write([]byte(`[{"ID":"eval-0","JobModifyIndex":7,"TriggeredBy":"job-register"},{"ID":"eval-1","JobModifyIndex":42,"TriggeredBy":"job-register"}]`))
		case r.URL.Path == "/v1/job/web" && a.job != "":
			_, _ = w.Write([]byte(a.job))
		case r.URL.Path == "/v1/job/web":
			http.Error(w, "job not found", http.StatusNotFound)
		default:
			t.Errorf("unexpected call %s %s", r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A registration whose answer was lost is never sent twice when it went through: Eos reads
// the job back and follows the evaluation that registration created. One that did not go
// through is sent again; one overtaken by someone else's change is refused by the enforced
// index.
func TestRegisterWithALostAnswerIsNotRepeated(t *testing.T) {
	t.Parallel()
	id := "web"
	dj := desiredJob{id: id, job: &api.Job{ID: &id, Name: &id}}
	for _, tc := range []struct {
		name      string
		agent     *lossyAgent
		registers int32
		eval      string
		conflict  bool
	}{
		{"accepted", &lossyAgent{job: `{"ID":"web","JobModifyIndex":42,"Version":0}`, diff: "None"}, 1, "eval-1", false},
		{"not accepted", &lossyAgent{}, 2, "eval-2", false},
		{"changed by someone else", &lossyAgent{job: `{"ID":"web","JobModifyIndex":42,"Version":0}`, diff: "Edited"}, 2, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := New(Config{Address: tc.agent.serve(t)})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			resp, err := l.register(ctx, dj, 0, newRetrier(nil))
			if n := tc.agent.registers.Load(); n != tc.registers {
				t.Errorf("registered %d times, want %d", n, tc.registers)
			}
			if tc.conflict {
				if !isIndexConflict(err) {
					t.Errorf("register = %+v, %v; want the enforced index's refusal", resp, err)
				}
				return
			}
			if err != nil || resp == nil || resp.EvalID != tc.eval {
				t.Errorf("register = %+v, %v; want evaluation %s", resp, err, tc.eval)
			}
		})
	}
}
