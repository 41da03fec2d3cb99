package terraform

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// eoslabModule is one eoslab server, the module the mirror tests init and plan.
var eoslabModule = serverModule("mirror-test", "")

// buildMirror runs the project's mirror script into dir with the given version.
func buildMirror(t *testing.T, dir, version string) {
	t.Helper()
	cmd := exec.Command("../../scripts/eoslab-mirror.sh", dir)
	cmd.Env = append(os.Environ(), "EOSLAB_VERSION="+version)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the eoslab mirror: %v\n%s", err, out)
	}
}

// A provider rebuilt into the mirror under a new version no longer matches the working
// directory's .terraform.lock.hcl; the layer renews the lock instead of failing every plan.
func TestRebuiltMirrorProviderRenewsTheLock(t *testing.T) {
	bin := terraformBinary(t)
	root := t.TempDir()
	mirror := filepath.Join(root, "mirror")
	buildMirror(t, mirror, "0.1.1")
	l, err := New(Config{
		Binary: bin, WorkDir: filepath.Join(root, "work"), Mirror: mirror,
		MirrorInclude: []string{"registry.terraform.io/eos/*"},
		Env:           map[string]string{"EOSLAB_ROOT": filepath.Join(root, "cloud")},
		Timeout:       2 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	spec := executor.Spec{Verb: "create", Target: "svc", Env: "local", Units: []executor.Unit{{Service: "svc",
		Terraform: &executor.TerraformPart{Files: map[string]string{"main.tf": eoslabModule}, Vars: map[string]any{"size": "small"}}}}}
	ctx := testCtx(t)
	plan, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Apply(ctx, spec, plan, executor.Observe(func(executor.Event) {}, nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cloud", "server", "mirror-test.json")); err != nil {
		t.Fatalf("the simulated server was not created: %v", err)
	}
	lock := filepath.Join(root, "work", "local", "svc", ".terraform.lock.hcl")
	if b, _ := os.ReadFile(lock); !strings.Contains(string(b), `version     = "0.1.1"`) {
		t.Fatalf("lock file does not pin 0.1.1:\n%s", b)
	}

	buildMirror(t, mirror, "0.1.2") // removes 0.1.1 from the mirror
	spec.Units[0].Terraform.Vars["size"] = "large"
	plan, err = l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("plan after the provider was rebuilt: %v", err)
	}
	if add, change, _ := plan.Counts(); add != 0 || change != 1 {
		t.Fatalf("plan after rebuild = %+v, want one in-place update", plan.Changes)
	}
	if b, _ := os.ReadFile(lock); !strings.Contains(string(b), `version     = "0.1.2"`) {
		t.Fatalf("lock file was not renewed to 0.1.2:\n%s", b)
	}
}
