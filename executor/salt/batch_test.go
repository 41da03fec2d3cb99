package salt

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
)

// twoUnitSpec is two lvm units on node1 whose pillars set the same keys to different values.
func twoUnitSpec() executor.Spec {
	spec := lvmSpec("node1")
	second := spec.Units[0]
	second.Service = "lvm2"
	second.Salt = &executor.SaltPart{State: "lvm.sls", Text: lvmText, Targets: []string{"node1"},
		Pillar: map[string]any{"service": "gitea", "size": "20G"}}
	spec.Units = append(spec.Units, second)
	return spec
}

// unitStates is what the fake minion returns for a unit: states named after its pillar's
// service, so a state given to the wrong unit, or a pillar read from the wrong unit, shows.
func unitStates(id string) func(string, string, map[string]any, bool) any {
	return func(_, _ string, pillar map[string]any, test bool) any {
		svc, _ := pillar["service"].(string)
		return states(
			s("lvm", id+svc, "data-"+svc, "lv_present", nil, map[string]any{"created": "data-" + svc}, "would be created", 0),
			s("file", "conf-"+svc, "/srv/"+svc+"/app.conf", "managed", nil, map[string]any{"diff": "--- \n+++ \n@@ -1 +1 @@\n-size=1G\n+size=" + pillar["size"].(string) + "\n"}, "would change", 1),
		)
	}
}

// planAlone plans spec with a job per unit, as before units shared a job.
func planAlone(t *testing.T, f *fakeSaltAPI, spec executor.Spec) (executor.LayerPlan, error) {
	t.Helper()
	l := newLayer(t, f, nil)
	l.separate = true
	return l.Plan(context.Background(), spec)
}

// Two units on the same minion are dry-run in one job whose pillar holds each unit's pillar
// under its own key, and each state goes back to the unit whose sls declared it: the plan is
// the one a job per unit gives.
func TestUnitsOnOneMinionShareOneDryRun(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = unitStates("data-")
	spec := twoUnitSpec()
	want, err := planAlone(t, f, spec)
	if err != nil {
		t.Fatalf("Plan, a job per unit: %v", err)
	}
	before := len(f.applyCalls())
	got, err := newLayer(t, f, nil).Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	calls := f.applyCalls()[before:]
	if len(calls) != 1 || strings.Count(calls[0].SLS, ",") != 1 {
		t.Fatalf("state.apply calls %+v, want one of both units' sls", calls)
	}
	if _, ok := calls[0].Pillar[batchPillar]; !ok || len(calls[0].Pillar) != 1 {
		t.Errorf("the combined job's pillar is %v, want only %s (a key per unit)", calls[0].Pillar, batchPillar)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan in one job differs from the plan of a job per unit:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range got.Changes {
		if svc := map[string]string{"lvm": "nextcloud", "lvm2": "gitea"}[c.Unit]; !strings.Contains(c.Address, svc) {
			t.Errorf("change %q given to unit %s, whose pillar names %s", c.Address, c.Unit, svc)
		}
	}
}

// Salt refuses a run in which two sls declare the same state id. The layer logs why and
// dry-runs the units in jobs of their own; the plan is theirs.
func TestSharedStateIDDryRunsSeparately(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = unitStates("shared")
	spec := twoUnitSpec()
	for i := range spec.Units {
		spec.Units[i].Salt.Pillar = map[string]any{"service": "same", "size": "20G"}
	}
	want, err := planAlone(t, f, spec)
	if err != nil {
		t.Fatalf("Plan, a job per unit: %v", err)
	}
	logs := &syncBuffer{}
	before := len(f.applyCalls())
	got, err := newLayer(t, f, logs).Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if calls := f.applyCalls()[before:]; len(calls) != 3 {
		t.Errorf("%d state.apply calls, want the combined one and one per unit: %+v", len(calls), calls)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan differs from the plan of a job per unit:\n got %+v\nwant %+v", got, want)
	}
	if !strings.Contains(logs.String(), "declare the same state id") || !strings.Contains(logs.String(), "sharedsame") {
		t.Errorf("the log does not say which state id made the units run separately:\n%s", logs.String())
	}
}

// A combined dry run that Salt refuses for one unit's state (a render error) reports what a
// job per unit reports: the first failing unit's cause, in the spec's order.
func TestCombinedDryRunFailureReportsTheFirstUnitsCause(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	ok := unitStates("data-")
	f.run = func(m, sls string, pillar map[string]any, test bool) any {
		if strings.Contains(sls, "lvm2") {
			return []any{"Rendering SLS 'base:" + sls + "' failed: Jinja variable 'dict object' has no attribute 'nope'"}
		}
		return ok(m, sls, pillar, test)
	}
	spec := twoUnitSpec()
	_, want := planAlone(t, f, spec)
	if want == nil {
		t.Fatal("a job per unit did not fail")
	}
	_, err := newLayer(t, f, nil).Plan(context.Background(), spec)
	if err == nil || err.Error() != want.Error() {
		t.Errorf("Plan error %v, want the one a job per unit gives: %v", err, want)
	}
}

// A unit shares a combined run only when every read of its pillar is one the prologue keeps
// to its own pillar.
func TestUnbatchable(t *testing.T) {
	pillar := map[string]any{"dir": "/srv/a", "port": 80, "eos_data_dir": "/x"}
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"{{ pillar['dir'] }}/a:\n  file.managed: []\n", true},
		{"{%- set d = salt['pillar.get']('dir', '') %}{%- set p = salt['pillar.get'](\"port\") %}\n{# pillar.items() in a comment #}\n", true},
		{"{%- set d = salt['config.get']('eos_data_dir_other', '') %}{{ pillar.get('dir') }}\n", true},
		{"{%- set d = salt['pillar.get']('missing') %}\n", false},
		{"{%- set d = salt['pillar.get']('a:b', '') %}\n", false},
		{"{%- set d = salt['config.get']('eos_data_dir', '') %}\n", false},
		{"{%- set d = salt.pillar.get('dir') %}\n", false},
		{"{%- set d = salt.cmd.run('true') %}\n", false},
		{"{%- for k, v in pillar.items() %}{% endfor %}\n", false},
		{"{%- set d = __pillar__ %}\n", false},
		{"#!py\ndef run(): return {}\n", false},
		{"{% include 'other.sls' %}\n", false},
		{"{% macro m() %}{{ pillar['dir'] }}{% endmacro %}\n", false},
		{"x:\n  file.managed:\n    - source: salt://x.j2\n    - template: jinja\n", false},
	} {
		u := executor.Unit{Service: "a", Salt: &executor.SaltPart{Text: c.text, Pillar: pillar}}
		if why := unbatchable(u); (why == "") != c.ok {
			t.Errorf("unbatchable(%q) = %q, want ok=%v", c.text, why, c.ok)
		}
	}
}

// The prologue rebinds pillar and just the functions the text calls, on the text's first
// line, so a render error names the line it names in a run of its own.
func TestBatchPrologue(t *testing.T) {
	text := "{%- set d = salt['config.get']('eos_data_dir', '') %}{%- set p = salt['pillar.get']('dir', '') %}\nx: {}\n"
	got := batchPrologue("app_1a2b", text)
	want := "{%- set pillar = salt['pillar.get']('eos_batch:app_1a2b', {}) %}{%- set salt = {'config.get': salt['config.get'], 'pillar.get': pillar.get} %}"
	if got != want {
		t.Errorf("prologue\n got %s\nwant %s", got, want)
	}
	if strings.Contains(got, "\n") {
		t.Error("the prologue adds a line")
	}
}

// Every shipped state, local and production, can share a combined dry run with the pillar
// its blueprint renders: none reads the pillar in a way the prologue cannot keep to its own.
func TestShippedStatesShareDryRuns(t *testing.T) {
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../../catalog/blueprints/*/salt/*.sls")
	if err != nil || len(files) < 8 {
		t.Fatalf("shipped states %v, %v", files, err)
	}
	for _, file := range files {
		name := filepath.Base(filepath.Dir(filepath.Dir(file)))
		b, ok := cat.Service(name)
		if !ok {
			continue // not a service (resize-lvm is an operation)
		}
		rendered, err := b.Render(catalog.Request{Env: "production"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		u := executor.Unit{Service: name, Salt: &executor.SaltPart{Text: string(text), Pillar: rendered.Salt.Pillar}}
		if why := unbatchable(u); why != "" {
			t.Errorf("%s cannot share a dry run: %s", file, why)
		}
	}
}
