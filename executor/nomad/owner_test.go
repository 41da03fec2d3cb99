package nomad

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// TestJobIDsCannotCollide: two units never share a job ID, because the names that would make
// them (a service or an environment containing the separator) are refused.
func TestJobIDsCannotCollide(t *testing.T) {
	t.Parallel()
	// Under the old "<service>-<env>" both were "web-app-prod".
	a, errA := unitJobID("web-app", "prod")
	b, errB := unitJobID("web", "app-prod")
	if errA != nil || errB != nil || a == b {
		t.Errorf("web-app in prod = %q (%v), web in app-prod = %q (%v); want two valid, distinct IDs", a, errA, b, errB)
	}
	for _, tt := range []struct{ service, env string }{
		{"web--app", "prod"}, {"web-", "prod"}, {"-web", "prod"}, {"Web", "prod"}, {"web_app", "prod"}, {"", "prod"},
		{"web", "app--prod"}, {"web", "-prod"}, {"web", "Prod"}, {"web", "pr/od"}, {"web", "pr.od"}, {"web", strings.Repeat("e", 64)},
	} {
		if id, err := unitJobID(tt.service, tt.env); err == nil {
			t.Errorf("unitJobID(%q, %q) = %q, want a refusal", tt.service, tt.env, id)
		}
	}
	for _, tt := range []struct{ service, env string }{{"grafana", "staging"}, {"resize-lvm", "eu-west_2"}, {"x1", "0"}} {
		if _, err := unitJobID(tt.service, tt.env); err != nil {
			t.Errorf("unitJobID(%q, %q): %v", tt.service, tt.env, err)
		}
	}
}

// TestForeignJobIsRefused: a job with the unit's ID that Eos did not register for that unit is
// refused at plan (create, destroy), at apply of a plan made before it appeared, and by
// rollback, and is never changed.
func TestForeignJobIsRefused(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "grafana"
	s := e.spec(svc, nil)
	early := e.plan(t, s) // made while the ID is free

	// Someone else's job under the same ID: meta that names the service but not the environment.
	dj, err := e.layer.parseJob(testCtx(t), e.env, s.Units[0])
	if err != nil {
		t.Fatal(err)
	}
	foreign := dj.job
	foreign.Meta = map[string]string{MetaService: svc, MetaEnv: "other", "label": "theirs"}
	resp, _, err := e.api.Jobs().Register(foreign, nil)
	if err != nil {
		t.Fatalf("registering the foreign job: %v", err)
	}
	before := e.waitJob(t, svc, resp.JobModifyIndex)

	want := "job " + e.id(svc) + " exists in Nomad but is not managed by Eos for grafana in " + e.env + ": refusing to change it"
	refused := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want ErrNotOwned saying %q", what, err, want)
		}
	}
	_, err = e.layer.Plan(testCtx(t), e.spec(svc, map[string]any{"label": "mine"}))
	refused("plan create", err)
	_, err = e.layer.Plan(testCtx(t), e.destroySpec(svc))
	refused("plan destroy", err)
	_, err = e.layer.Apply(testCtx(t), s, early, executor.Observe(nil, nil))
	refused("apply of an earlier plan", err)
	_, err = e.layer.Rollback(testCtx(t), s, nil, executor.Observe(nil, nil))
	refused("rollback", err)
	_, err = e.layer.Rollback(testCtx(t), e.destroySpec(svc), nil, executor.Observe(nil, nil))
	refused("rollback of a destroy", err)
	d, err := e.layer.Drift(testCtx(t), s)
	if err != nil || d.Status != executor.DriftDrifted || len(d.Changes) != 1 || !strings.Contains(d.Changes[0].Detail, "replaced outside Eos") {
		t.Errorf("drift = %+v, %v; want drifted, replaced outside Eos", d, err)
	}

	after := e.job(t, svc)
	if *after.JobModifyIndex != *before.JobModifyIndex || *after.Version != *before.Version || *after.Stop || after.Meta["label"] != "theirs" {
		t.Errorf("the foreign job was touched: index %d → %d, version %d → %d, stopped %v, meta %v",
			*before.JobModifyIndex, *after.JobModifyIndex, *before.Version, *after.Version, *after.Stop, after.Meta)
	}
}

// TestEnvironmentsGetDistinctJobs: the same service in two environments, and two units whose
// IDs collided under the old "<service>-<env>" scheme, run as separate jobs that each carry
// their owner, and destroying one leaves the others running.
func TestEnvironmentsGetDistinctJobs(t *testing.T) {
	t.Parallel()
	staging, prod := newE2E(t), newE2E(t)
	// Under the old scheme "web" in app-X and "web-app" in X were both the job "web-app-X".
	prod.env = "app-" + staging.env
	units := []struct {
		e   *e2e
		svc string
	}{{staging, "web"}, {prod, "web"}, {staging, "web-app"}}
	ids := map[string]bool{}
	for _, u := range units {
		s := u.e.spec(u.svc, nil)
		if res, _ := u.e.apply(t, s, u.e.plan(t, s)); res.Status != executor.ResultOK {
			t.Fatalf("%s in %s: %+v", u.svc, u.e.env, res)
		}
		ids[u.e.id(u.svc)] = true
	}
	if len(ids) != len(units) {
		t.Fatalf("job IDs %v: want %d distinct", ids, len(units))
	}
	for _, u := range units {
		j := u.e.job(t, u.svc)
		if j.Meta[MetaService] != u.svc || j.Meta[MetaEnv] != u.e.env || *j.Status != "running" {
			t.Errorf("job %s: meta %v status %s; want owner %s in %s, running", *j.ID, j.Meta, *j.Status, u.svc, u.e.env)
		}
	}
	d := prod.destroySpec("web")
	if res, _ := prod.apply(t, d, prod.plan(t, d)); res.Status != executor.ResultOK {
		t.Fatalf("destroy web in %s: %+v", prod.env, res)
	}
	if !*prod.job(t, "web").Stop || *staging.job(t, "web").Stop || *staging.job(t, "web-app").Stop {
		t.Errorf("after destroying web in %s: want only its job stopped", prod.env)
	}
}

// waitJob reads the job once its modify index has reached index.
func (e *e2e) waitJob(t *testing.T, service string, index uint64) *api.Job {
	t.Helper()
	j, _, err := e.api.Jobs().Info(e.id(service), (&api.QueryOptions{WaitIndex: index - 1}).WithContext(testCtx(t)))
	if err != nil {
		t.Fatalf("reading job %s: %v", e.id(service), err)
	}
	return j
}
