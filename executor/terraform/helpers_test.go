package terraform

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// terraformBinary finds the real terraform for integration tests. Without it the tests skip,
// unless CI is set, where a missing binary is a failure rather than a silent pass.
func terraformBinary(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("terraform")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("terraform is required in CI: %v", err)
		}
		t.Skipf("terraform not on PATH: %v", err)
	}
	return path
}

func newTestLayer(t *testing.T) *Layer {
	t.Helper()
	bin := terraformBinary(t)
	root := t.TempDir()
	l, err := New(Config{
		Binary:         bin,
		WorkDir:        filepath.Join(root, "work"),
		PluginCacheDir: filepath.Join(root, "plugins"),
		Timeout:        time.Minute,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// threeResources is a module with a chain of three resources, so they are created in order.
const threeResources = `
variable "size" {
  type = string
}

variable "password" {
  type      = string
  sensitive = true
  default   = "s3cret-default"
}

resource "terraform_data" "server" {
  input = var.size
}

resource "terraform_data" "volume" {
  input            = "data-${var.size}"
  triggers_replace = [var.size]
  depends_on       = [terraform_data.server]
}

resource "terraform_data" "dns" {
  input      = { name = "cloud.example.org", secret = var.password }
  depends_on = [terraform_data.volume]
}

output "server" {
  value = terraform_data.server.output
}
`

func unit(service string, files map[string]string, vars map[string]any) executor.Unit {
	return executor.Unit{Service: service, Terraform: &executor.TerraformPart{Files: files, Vars: vars}}
}

func spec(units ...executor.Unit) executor.Spec {
	return executor.Spec{Verb: "create", Target: units[len(units)-1].Service, Env: "local", Units: units}
}

func serverSpec(size string) executor.Spec {
	return spec(unit("nextcloud", map[string]string{"main.tf": threeResources}, map[string]any{"size": size}))
}

// stateAddresses reads the resource addresses from a unit's local state file.
func stateAddresses(t *testing.T, l *Layer, env, service string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(l.workDir, env, service, "terraform.tfstate"))
	if err != nil {
		t.Fatalf("reading state: %v", err)
	}
	var st struct {
		Resources []struct {
			Mode, Type, Name string
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatalf("decoding state: %v", err)
	}
	var out []string
	for _, r := range st.Resources {
		if r.Mode == "managed" {
			out = append(out, r.Type+"."+r.Name)
		}
	}
	sort.Strings(out)
	return out
}

func mustPlan(t *testing.T, l *Layer, s executor.Spec) executor.LayerPlan {
	t.Helper()
	p, err := l.Plan(testCtx(t), s)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	return p
}

func mustApply(t *testing.T, l *Layer, s executor.Spec, p executor.LayerPlan) (executor.LayerResult, []executor.Event) {
	t.Helper()
	var events []executor.Event
	res, err := l.Apply(testCtx(t), s, p, func(e executor.Event) { events = append(events, e) })
	if err != nil {
		t.Fatalf("Apply: %v (result %+v)", err, res)
	}
	return res, events
}

// testServer is the address of a server scripts/testenv/<script> started, from the
// environment variable name. Without it the test skips, unless CI is set: then it fails.
func testServer(t *testing.T, name, script string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required in CI: run scripts/test.sh (scripts/testenv/%s)", name, script)
		}
		t.Skipf("%s not set; scripts/testenv/%s start DIR sets it", name, script)
	}
	return v
}

// randomSuffix is 8 hex digits, to keep concurrent tests' names in a shared server apart.
func randomSuffix() string {
	b := make([]byte, 4)
	rand.Read(b)
	return hex.EncodeToString(b)
}
