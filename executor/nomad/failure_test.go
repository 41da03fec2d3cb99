package nomad

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

func TestNewJobThatFailsIsStopped(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "crash"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "exit 3"}})
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(nil, nil))
	if err == nil || res.Status != executor.ResultFailed || !strings.Contains(res.Error, "task main exited 3 and was not restarted") {
		t.Fatalf("Apply = %+v, %v; want a failure naming exit code 3", res, err)
	}
	note, err := e.layer.Rollback(testCtx(t), s, nil, executor.Observe(nil, nil))
	if err != nil || note != "stopped job "+e.id(svc)+" (it had no earlier stable version)" {
		t.Fatalf("Rollback = %q, %v", note, err)
	}
	if j := e.job(t, svc); !*j.Stop {
		t.Error("the failed new job is not stopped")
	}
	if again, err := e.layer.Rollback(testCtx(t), s, nil, executor.Observe(nil, nil)); err != nil || again != "job "+e.id(svc)+" is stopped; nothing to roll back" {
		t.Errorf("second Rollback = %q, %v", again, err)
	}
}

func TestDockerJobCannotBePlaced(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "boxed"
	s := e.spec(svc, map[string]any{"driver": "docker"})
	p := e.plan(t, s)
	const why = "cannot place group app (1 allocation): no node has the docker driver"
	if p.Status != executor.PlanChanges || p.Summary != "job "+e.id(svc)+": new, group app ×1 — "+why {
		t.Errorf("plan summary = %q", p.Summary)
	}
	if len(p.Changes) != 1 || !strings.HasSuffix(p.Changes[0].Detail, " — "+why) {
		t.Errorf("changes = %+v, want the failure in the group's detail", p.Changes)
	}
	if want := []string{"job " + e.id(svc) + ": " + why}; !reflect.DeepEqual(p.Failures, want) {
		t.Errorf("failures = %q, want %q: a plan that cannot be placed cannot be approved", p.Failures, want)
	}
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, p, executor.Observe(nil, nil))
	if err == nil || !strings.Contains(res.Error, why) {
		t.Errorf("Apply = %+v, %v; want the placement failure", res, err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("Apply took %s: it waited for a deployment that cannot start", time.Since(start))
	}
}

func TestDriftAfterAFailedAllocation(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "flaky"
	// Healthy after a second, dead after eight: the deployment succeeds, then the task fails.
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "sleep 8; exit 2"}})
	e.apply(t, s, e.plan(t, s))
	e.waitAlloc(t, svc, func(a *api.AllocationListStub) bool { return a.ClientStatus == "failed" })
	d, err := e.layer.Drift(testCtx(t), s)
	if err != nil || d.Status != executor.DriftDrifted || len(d.Changes) != 1 {
		t.Fatalf("drift = %+v, %v; want one drifted change", d, err)
	}
	c := d.Changes[0]
	if c.Address != e.id(svc)+"/app" || c.Detail != "1 allocation failed (task main: Exit Code: 2)" {
		t.Errorf("change = %+v", c)
	}
	st, err := e.layer.JobStatus(testCtx(t), svc, e.env)
	if err != nil || st.Allocations["failed"] != 1 {
		t.Errorf("status = %+v, %v; want one failed allocation", st, err)
	}
}

func TestMissingJob(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	s := e.spec("ghost", nil)
	d, err := e.layer.Drift(testCtx(t), s)
	if err != nil || d.Status != executor.DriftDrifted || d.Changes[0].Detail != "declared but missing from Nomad" {
		t.Errorf("drift = %+v, %v", d, err)
	}
	if _, err := e.layer.JobStatus(testCtx(t), "ghost", e.env); !errors.Is(err, ErrJobNotFound) {
		t.Errorf("Status = %v, want ErrJobNotFound", err)
	}
	if p := e.plan(t, e.destroySpec("ghost")); p.Status != executor.PlanNoChanges {
		t.Errorf("destroy plan of a missing job = %+v", p)
	}
}

func TestUnreachableAgentIsNeverClean(t *testing.T) {
	t.Parallel()
	l, err := New(Config{Address: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	s := executor.Spec{Env: "nowhere", Units: []executor.Unit{{Service: "x", Nomad: &executor.NomadPart{Template: testTemplate}}}}
	d, err := l.Drift(testCtx(t), s)
	if err == nil || d.Status != executor.DriftUnknown || d.Reason == "" {
		t.Errorf("drift = %+v, %v; want unknown with a reason", d, err)
	}
	if _, err := l.Plan(testCtx(t), s); err == nil || !strings.Contains(err.Error(), "parsing the job template") {
		t.Errorf("Plan = %v, want the parse request's error", err)
	}
	if p, err := l.Plan(testCtx(t), executor.Spec{Env: "e2e"}); err != nil || p.Status != executor.PlanNothing {
		t.Errorf("Plan of a spec without Nomad parts = %+v, %v", p, err)
	}
}

func TestDestroyIsRolledBack(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "phoenix"
	s := e.spec(svc, nil)
	e.apply(t, s, e.plan(t, s))
	running := e.job(t, svc)
	d := e.destroySpec(svc)
	e.apply(t, d, e.plan(t, d))
	note, err := e.layer.Rollback(testCtx(t), d, &s, executor.Observe(nil, nil))
	if want := "reverted job " + e.id(svc) + " to version " + fmt.Sprint(*running.Version) + " (1/1 healthy)"; err != nil || note != want {
		t.Fatalf("Rollback = %q, %v; want %q", note, err, want)
	}
	if j := e.job(t, svc); *j.Stop || *j.Status != "running" {
		t.Errorf("after rollback: stop %v status %s; want running", *j.Stop, *j.Status)
	}
}

// TestPurgedJobRegisteredAgain covers a Nomad 1.4 trap: a job whose deployment succeeded and
// whose allocation then failed, purged and registered again under the same ID, is never
// placed while the old allocation lingers. Apply must say so at once instead of waiting for
// DeployTimeout.
func TestPurgedJobRegisteredAgain(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "lazarus"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "sleep 4; exit 2"}})
	e.apply(t, s, e.plan(t, s))
	e.waitAlloc(t, svc, func(a *api.AllocationListStub) bool { return a.ClientStatus == "failed" })
	if _, _, err := e.api.Jobs().Deregister(e.id(svc), true, nil); err != nil {
		t.Fatalf("purging: %v", err)
	}
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(nil, nil))
	if err == nil || !strings.Contains(res.Error, "Nomad placed no allocation and reported no failure") ||
		!strings.Contains(res.Error, "run `nomad system gc` and plan again") {
		t.Errorf("Apply = %+v, %v; want the purged-job diagnosis", res, err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("Apply took %s", time.Since(start))
	}
}

func TestRefusedJobErrorIsOneLine(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	_, err := e.layer.Plan(testCtx(t), e.spec("neg", map[string]any{"instances": -1}))
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "Nomad refused it (500): Task group app validation failed: ") {
		t.Errorf("Plan = %q, want a one-line refusal naming the group", err)
	}
}

// A group whose constraint no node satisfies is a failure of the plan, in the scheduler's
// words, on the real agent: the plan cannot be approved, and planning registered nothing.
func TestUnsatisfiableConstraintIsAPlanFailure(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "gpuonly"
	s := e.spec(svc, nil)
	s.Units[0].Nomad.Template = strings.Replace(testTemplate, `  group "app" {`, `  group "app" {
    constraint {
      attribute = "${meta.eos_role}"
      value     = "gpu"
    }`, 1)
	p := e.plan(t, s)
	want := []string{"job " + e.id(svc) + ": cannot place group app (1 allocation): 1 node excluded by constraint ${meta.eos_role} = gpu"}
	if !reflect.DeepEqual(p.Failures, want) {
		t.Errorf("failures = %q, want %q", p.Failures, want)
	}
	if j, _, err := e.api.Jobs().Info(e.id(svc), nil); err == nil && j != nil {
		t.Errorf("planning registered job %s", e.id(svc))
	}
}
