package terraform

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
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
		missing(t, fmt.Sprintf("terraform not on PATH: %v", err))
	}
	return path
}

// missing stops a test that lacks a server or tool it needs: it fails when CI is set to any
// non-empty value (a test must never pass in CI by not running) and skips otherwise.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set, so this fails rather than skips: " + msg)
	}
	t.Skip(msg)
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
	res, err := l.Apply(testCtx(t), s, p, executor.Observe(func(e executor.Event) { events = append(events, e) }, nil))
	if err != nil {
		t.Fatalf("Apply: %v (result %+v)", err, res)
	}
	return res, events
}

// testServer is the address of a server scripts/testenv/<script> started, from the
// environment variable name. Without it the test skips, unless CI is set (to anything): then it fails.
func testServer(t *testing.T, name, script string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		missing(t, fmt.Sprintf("%s not set; scripts/testenv/%s start DIR sets it (scripts/test.sh does)", name, script))
	}
	return v
}

// randomSuffix is 8 hex digits, to keep concurrent tests' names in a shared server apart.
func randomSuffix() string {
	b := make([]byte, 4)
	rand.Read(b)
	return hex.EncodeToString(b)
}

var eoslab struct {
	once sync.Once
	dir  string
	err  error
}

// eoslabMirror is a filesystem mirror holding the eoslab provider: the one
// EOS_TEST_PROVIDER_MIRROR names (scripts/test.sh builds it), or else one built once per test
// run into the user's cache by scripts/eoslab-mirror.sh, which skips the build when the
// provider's sources have not changed.
func eoslabMirror(t *testing.T) string {
	t.Helper()
	terraformBinary(t)
	if dir := os.Getenv("EOS_TEST_PROVIDER_MIRROR"); dir != "" {
		return dir
	}
	eoslab.once.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			eoslab.err = fmt.Errorf("finding the cache directory: %w", err)
			return
		}
		eoslab.dir = filepath.Join(cache, "eos", "providers")
		var stderr bytes.Buffer
		cmd := exec.Command("../../scripts/eoslab-mirror.sh", eoslab.dir)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			eoslab.err = fmt.Errorf("building the eoslab provider mirror: %w\n%s", err, stderr.Bytes())
		}
	})
	if eoslab.err != nil {
		t.Fatal(eoslab.err)
	}
	return eoslab.dir
}

// newEoslabLayer is a layer whose modules may use the eoslab provider, with a simulated cloud
// of its own (returned) and env (EOSLAB_DELAY, ...) for every terraform process.
func newEoslabLayer(t *testing.T, env map[string]string) (*Layer, string) {
	t.Helper()
	mirror := eoslabMirror(t)
	root := t.TempDir()
	cloud := filepath.Join(root, "cloud")
	e := map[string]string{"EOSLAB_ROOT": cloud}
	for k, v := range env {
		e[k] = v
	}
	l, err := New(Config{
		Binary: terraformBinary(t), WorkDir: filepath.Join(root, "work"), PluginCacheDir: filepath.Join(root, "plugins"),
		Mirror: mirror, MirrorInclude: []string{"registry.terraform.io/eos/*"}, Env: e, Timeout: 2 * time.Minute,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l, cloud
}

// savedPlans are the saved plan files a layer plan names, one per unit.
func savedPlans(t *testing.T, p executor.LayerPlan) []string {
	t.Helper()
	st, err := decodeState(p.State)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, u := range st.Units {
		out = append(out, u.Plan)
	}
	return out
}
