package terraform

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/eosbot/eos/executor"
)

func TestWriteModule(t *testing.T) {
	dir := t.TempDir()
	keep := []string{".terraform.lock.hcl", "terraform.tfstate", "terraform.tfstate.backup", "README.md", "eos.tfplan"}
	stale := []string{"old.tf", "old.tf.json", "x.auto.tfvars", "terraform.tfvars.json"}
	for _, name := range append(keep, stale...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, ".terraform", "providers"), 0o750); err != nil {
		t.Fatal(err)
	}
	part := &executor.TerraformPart{
		Files: map[string]string{"main.tf": "# main\n", "old.tf": "# kept, it is in the spec\n"},
		Vars:  map[string]any{"size": "small", "count": 3, "tags": []string{"a", "b"}, "quote": `"}; rm -rf /`},
	}
	if err := writeModule(dir, part); err != nil {
		t.Fatalf("writeModule: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := append(slices.Clone(keep), ".terraform", "main.tf", "old.tf", varsFile)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("directory has %v, want %v", names, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "old.tf")); string(b) != "# kept, it is in the spec\n" {
		t.Errorf("old.tf = %q", b)
	}
	vars, err := os.ReadFile(filepath.Join(dir, varsFile))
	if err != nil {
		t.Fatal(err)
	}
	wantVars := `{
  "count": 3,
  "quote": "\"}; rm -rf /",
  "size": "small",
  "tags": [
    "a",
    "b"
  ]
}
`
	if string(vars) != wantVars {
		t.Errorf("tfvars =\n%s\nwant\n%s", vars, wantVars)
	}
}

func TestModuleFileNames(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"main.tf", true}, {"templates.tftpl", true}, {"terraform.tfvars", true},
		{"../escape.tf", false}, {"sub/dir.tf", false}, {".hidden.tf", false}, {"", false}, {"..", false},
		{"eos.tfvars.json", false}, {"eos-drift.tfplan", false}, {"terraform.tfstate", false},
	}
	for _, tt := range tests {
		err := checkFileName(tt.name)
		if (err == nil) != tt.ok {
			t.Errorf("checkFileName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
	dir := t.TempDir()
	err := writeModule(dir, &executor.TerraformPart{Files: map[string]string{"../x.tf": ""}})
	if err == nil || !strings.Contains(err.Error(), "path separators") {
		t.Errorf("writeModule with ../x.tf = %v", err)
	}
	if _, statErr := os.Stat(filepath.Join(filepath.Dir(dir), "x.tf")); !os.IsNotExist(statErr) {
		t.Error("a module file escaped the working directory")
	}
}

func TestUnitNamesAreChecked(t *testing.T) {
	l := &Layer{workDir: t.TempDir(), units: map[string]*unitDir{}}
	for _, s := range []executor.Spec{
		{Env: "../prod", Units: []executor.Unit{{Service: "web"}}},
		{Env: "prod", Units: []executor.Unit{{Service: ".."}}},
		{Env: snapshotsDir, Units: []executor.Unit{{Service: "web"}}},
	} {
		if _, _, err := l.lockUnit(s.Env, s.Units[0]); err == nil {
			t.Errorf("lockUnit(%q, %q) accepted a path", s.Env, s.Units[0].Service)
		}
	}
}

// TestCommandOptions pins the options each command is built with; the fake-binary test checks
// the argument lists terraform-exec makes from them.
func TestCommandOptions(t *testing.T) {
	initOpts := func(b BackendConfig) []tfexec.InitOption {
		r := &run{l: &Layer{backend: b}, ud: &unitDir{key: "local/web", dir: t.TempDir()}}
		opts, err := r.initOptions()
		if err != nil {
			t.Fatalf("initOptions(%s): %v", b.Type, err)
		}
		return opts
	}
	pg := BackendConfig{Type: BackendPg, Config: map[string]string{"conn_str": "postgres://u:pw@db/x", "schema_name": "eos", "skip_index_creation": "true"}}
	tests := []struct {
		name      string
		got, want any
	}{
		{"init", initOpts(BackendConfig{Type: BackendLocal}), []tfexec.InitOption{tfexec.Backend(true), tfexec.Upgrade(false), tfexec.Get(true)}},
		// The connection string (a secret) is never a -backend-config argument.
		{"init pg", initOpts(pg), []tfexec.InitOption{tfexec.Backend(true), tfexec.Upgrade(false), tfexec.Get(true),
			tfexec.BackendConfig("schema_name=eos"), tfexec.BackendConfig("skip_index_creation=true"), tfexec.Reconfigure(true)}},
		{"plan", planOptions("eos-plans/p.tfplan", planApply), []tfexec.PlanOption{tfexec.Out("eos-plans/p.tfplan"), tfexec.VarFile("eos.tfvars.json")}},
		{"plan destroy", planOptions("eos-plans/p.tfplan", planDestroy), []tfexec.PlanOption{tfexec.Out("eos-plans/p.tfplan"), tfexec.VarFile("eos.tfvars.json"), tfexec.Destroy(true)}},
		{"plan refresh-only", planOptions(driftFile, planRefresh), []tfexec.PlanOption{tfexec.Out("eos-drift.tfplan"), tfexec.VarFile("eos.tfvars.json"), tfexec.RefreshOnly(true)}},
		{"apply", applyOptions("eos-plans/p.tfplan", 0), []tfexec.ApplyOption{tfexec.DirOrPlan("eos-plans/p.tfplan")}},
		{"apply waiting for the lock", applyOptions("eos-plans/p.tfplan", 30*time.Second), []tfexec.ApplyOption{tfexec.DirOrPlan("eos-plans/p.tfplan"), tfexec.LockTimeout("30s")}},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s options = %#v, want %#v", tt.name, tt.got, tt.want)
		}
	}
}
