package nomad

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// A job that is as declared but whose allocation failed after its deployment succeeded (and
// that Nomad's reschedule policy left failed) is fixed by a reconcile: its plan reschedules
// the group, naming why it failed, and its apply has Nomad place the allocation again under
// the same job version and waits for the job's min_healthy_time; a replacement that fails
// within it fails the apply; drift is clean once one holds. Any other verb plans nothing for
// it, as registering the job again would change nothing.
func TestAReconcileReschedulesAFailedAllocation(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "flaky"
	dir := t.TempDir()
	ready, seen := filepath.Join(dir, "ready"), filepath.Join(dir, "seen")
	// The first allocation is healthy for six seconds, then fails; a replacement fails after
	// two unless ready exists, and then runs.
	script := "test -f " + ready + " && exec sleep 3600; test -f " + seen + " && { sleep 2; exit 2; }; touch " + seen + "; sleep 6; exit 2"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", script}})
	// Healthy after five seconds; Nomad would place a failed allocation again, but only in an hour.
	tmpl := strings.Replace(testTemplate, `min_healthy_time  = "1s"`, `min_healthy_time  = "5s"`, 1)
	s.Units[0].Nomad.Template = strings.Replace(tmpl, `    reschedule {
      attempts  = 0
      unlimited = false
    }`, `    reschedule {
      attempts  = 1
      interval  = "24h"
      delay     = "1h"
      unlimited = false
    }`, 1)
	e.apply(t, s, e.plan(t, s))
	first := e.waitAlloc(t, svc, func(a *api.AllocationListStub) bool { return a.ClientStatus == "failed" })
	version := *e.job(t, svc).Version

	if p := e.plan(t, s); p.Status != executor.PlanNoChanges {
		t.Fatalf("a create's plan of the failed job = %+v, want no changes", p)
	}
	rs := s
	rs.Verb = "reconcile"
	p := e.plan(t, rs)
	if p.Status != executor.PlanChanges || len(p.Changes) != 1 {
		t.Fatalf("reconcile plan = %+v, want one change", p)
	}
	c := p.Changes[0]
	if c.Address != e.id(svc)+"/app" || c.Action != executor.Update || c.Detail != "1 allocation failed (task main: Exit Code: 2); Nomad places it again" {
		t.Errorf("change = %+v", c)
	}
	if !strings.Contains(p.Summary, "reschedule group app: 1 allocation failed (task main: Exit Code: 2)") {
		t.Errorf("summary = %q, want the reschedule named with its cause", p.Summary)
	}

	// Not ready yet: the replacement runs, then fails within the five seconds.
	res, err := e.layer.Apply(testCtx(t), rs, p, nil)
	if err == nil || res.Status != executor.ResultFailed || !strings.Contains(res.Error, "within 5s of starting again (task main: Exit Code: 2)") {
		t.Fatalf("apply of a replacement that fails again = %+v, %v; want it failed within the min_healthy_time", res, err)
	}

	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p = e.plan(t, rs)
	res, ev := e.apply(t, rs, p)
	if res.Status != executor.ResultOK || !strings.Contains(res.Summary, e.id(svc)+" 1/1 healthy") {
		t.Fatalf("apply = %+v (events %q), want the replacement healthy", res, ev.messages())
	}
	if v := *e.job(t, svc).Version; v != version {
		t.Errorf("the job is at version %d after the reschedule, want %d: the job itself must not change", v, version)
	}
	e.waitAlloc(t, svc, func(a *api.AllocationListStub) bool {
		return a.ID != first.ID && a.ClientStatus == "running" && a.JobVersion == version
	})
	d, err := e.layer.Drift(testCtx(t), s)
	if err != nil || d.Status != executor.DriftClean {
		t.Fatalf("drift after the reschedule = %+v, %v; want clean", d, err)
	}
	if p := e.plan(t, rs); p.Status != executor.PlanNoChanges {
		t.Errorf("a second reconcile's plan = %+v, want no changes", p)
	}
}
