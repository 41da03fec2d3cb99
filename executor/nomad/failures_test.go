package nomad

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// fakeAgent answers the three calls a plan of a new job makes: the template parse, the job
// lookup (there is none) and the scheduler's dry run, which returns plan.
func fakeAgent(t *testing.T, plan []byte) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/v1/jobs/parse":
			_, _ = w.Write([]byte(`{"Datacenters":["dc1"],"Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[{"Name":"main","Driver":"raw_exec"}]}]}`))
		case strings.HasSuffix(r.URL.Path, "/plan"):
			_, _ = w.Write(plan)
		case strings.HasPrefix(r.URL.Path, "/v1/job/"):
			http.Error(w, "job not found", http.StatusNotFound)
		default:
			t.Errorf("unexpected call %s %s", r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusInternalServerError)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// A group the scheduler cannot place is a failure the plan carries, naming the job, the
// group and the scheduler's reason, so the plan cannot be approved; a plan Nomad can place
// carries none. The response was recorded from Nomad 1.4.1's job plan endpoint for a group
// whose constraint no node satisfies.
func TestPlanCarriesPlacementFailures(t *testing.T) {
	t.Parallel()
	unplaceable, err := os.ReadFile("testdata/plan_unplaceable.json")
	if err != nil {
		t.Fatal(err)
	}
	var resp map[string]any
	if err := json.Unmarshal(unplaceable, &resp); err != nil {
		t.Fatal(err)
	}
	resp["FailedTGAllocs"] = nil
	placeable, _ := json.Marshal(resp)
	spec := executor.Spec{Verb: "create", Target: "gitea", Env: "local", Units: []executor.Unit{{Service: "gitea", Nomad: &executor.NomadPart{Template: `job "x" {}`}}}}
	for _, tc := range []struct {
		name  string
		plan  string
		adopt bool
		want  []string
	}{
		{"unplaceable", string(unplaceable), false, []string{"job gitea--local: cannot place group app (1 allocation): 1 node excluded by constraint ${meta.eos_role} = gpu"}},
		{"placeable", string(placeable), false, nil},
		{"adopt registers nothing", string(unplaceable), true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := New(Config{Address: fakeAgent(t, []byte(tc.plan))})
			if err != nil {
				t.Fatal(err)
			}
			s := spec
			s.Adopt = tc.adopt
			p, err := l.Plan(context.Background(), s)
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			if !reflect.DeepEqual(p.Failures, tc.want) {
				t.Errorf("failures = %q, want %q", p.Failures, tc.want)
			}
			if p.Status != executor.PlanChanges && !tc.adopt {
				t.Errorf("status = %s, want changes", p.Status)
			}
		})
	}
}
