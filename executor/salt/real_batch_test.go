package salt

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
)

// ssoSpec is `create nextcloud --sso` as far as Salt goes: the shipped local states of
// authentik and nextcloud on the test minion, both reading the same pillar keys (lv_name,
// mount_point, domain) with different values, under dir.
func ssoSpec(t *testing.T, r realSalt, dir, domain string) executor.Spec {
	t.Helper()
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	spec := executor.Spec{Verb: "create", Target: "nextcloud", Env: "local"}
	for _, name := range []string{"authentik", "nextcloud"} {
		b, ok := cat.Service(name)
		if !ok {
			t.Fatalf("no blueprint %s", name)
		}
		rendered, err := b.Render(catalog.Request{Env: "local"})
		if err != nil {
			t.Fatal(err)
		}
		rendered.Salt.Pillar["mount_point"] = strings.TrimPrefix(dir, r.data) + "/srv/" + name
		rendered.Salt.Pillar["domain"] = name + "." + domain
		spec.Units = append(spec.Units, executor.Unit{Service: name,
			Salt: &executor.SaltPart{State: rendered.Salt.State, Text: rendered.Salt.Text, Pillar: rendered.Salt.Pillar}})
	}
	return spec
}

// Two units on one minion are dry-run in one job on the real master, and each unit's plan is
// exactly the one its own job gives: its states, its file diffs (masked), its counts, though
// both read the same pillar keys with different values. Planned twenty times, the plan has one
// hash.
func TestRealUnitsOnOneMinionShareOneDryRun(t *testing.T) {
	r := needSalt(t)
	logs := &syncBuffer{}
	l := r.layer(t, logs, nil)
	alone := r.layer(t, nil, nil)
	alone.separate = true
	ctx := context.Background()
	dir := r.dir(t)
	spec := ssoSpec(t, r, dir, "example.org")
	// Applied first, so that a new domain is a change of each configuration file's content,
	// with a diff.
	p, err := alone.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if _, err := alone.Apply(ctx, spec, p, nil); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	spec = ssoSpec(t, r, dir, "example.net")

	want, err := alone.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan, a job per unit: %v", err)
	}
	diffs := map[string]bool{}
	for _, c := range want.Changes {
		if c.Diff != "" && strings.Contains(c.Diff, c.Unit+".example.net") {
			diffs[c.Unit] = true
		}
	}
	if !diffs["authentik"] || !diffs["nextcloud"] {
		t.Fatalf("the plan of a job per unit has no diff naming each unit's new domain: %+v", want.Changes)
	}
	hashes := map[string]bool{}
	for i := range 20 {
		got, err := l.Plan(ctx, spec)
		if err != nil {
			t.Fatalf("Plan %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("plan %d in one job differs from the plan of a job per unit:\n got %+v\nwant %+v", i, got, want)
		}
		hashes[executor.HashPlan(spec, []executor.LayerPlan{got})] = true
	}
	if len(hashes) != 1 {
		t.Errorf("20 plans gave %d hashes, want 1", len(hashes))
	}
	if n := strings.Count(logs.String(), `unit=authentik,nextcloud sls=`); n != 20 {
		t.Errorf("%d combined dry runs of authentik and nextcloud in the log, want 20:\n%s", n, logs.String())
	}
	// A drift check goes the same way: the new domains are both units' drift, each its own.
	wantDrift, err := alone.Drift(ctx, spec)
	if err != nil || wantDrift.Status != executor.DriftDrifted {
		t.Fatalf("Drift, a job per unit = %+v, %v; want drifted", wantDrift, err)
	}
	gotDrift, err := l.Drift(ctx, spec)
	if err != nil || !reflect.DeepEqual(gotDrift, wantDrift) {
		t.Errorf("Drift in one job = %+v, %v\nwant %+v", gotDrift, err, wantDrift)
	}
	if n := strings.Count(logs.String(), `unit=authentik,nextcloud sls=`); n != 21 {
		t.Errorf("the drift check was not one combined dry run (%d in the log, want 21)", n)
	}
}

// Two units whose states declare the same state id cannot share a run: the real master
// refuses it ("Detected conflicting IDs"), the layer says so in its log and dry-runs them in
// jobs of their own, and the plan is the one of a job per unit.
func TestRealSharedStateIDFallsBackToSeparateDryRuns(t *testing.T) {
	r := needSalt(t)
	logs := &syncBuffer{}
	l := r.layer(t, logs, nil)
	alone := r.layer(t, nil, nil)
	alone.separate = true
	ctx := context.Background()
	shared := "eos-shared-id:\n  test.nop: []\n"
	spec := fileSpec("app1", r.dir(t), 8080, shared)
	spec.Units = append(spec.Units, fileSpec("app2", r.dir(t), 9090, shared).Units[0])
	want, err := alone.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan, a job per unit: %v", err)
	}
	got, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan after the refused combined run differs from a job per unit:\n got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(logs.String(), "declare the same state id") || !strings.Contains(logs.String(), "eos-shared-id") {
		t.Errorf("the log does not say why the units were dry-run separately:\n%s", logs.String())
	}
}
