package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-config-inspect/tfconfig"
)

// missing stops a test that lacks a server or tool it needs: it fails when CI is set to any
// non-empty value (a test must never pass in CI by not running) and skips otherwise.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set, so this fails rather than skips: " + msg)
	}
	t.Skip(msg)
}

// terraformBinary finds terraform for the module tests. They are integration tests: without the
// binary they skip, except in CI, where a missing binary must not pass silently.
func terraformBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs terraform; skipped with -short")
	}
	bin, err := exec.LookPath("terraform")
	if err != nil {
		missing(t, fmt.Sprintf("terraform is not on PATH: %v", err))
	}
	return bin
}

var mirror struct {
	once sync.Once
	dir  string
	err  error
}

// eoslabMirror returns a Terraform filesystem mirror holding the eoslab provider: the one
// EOS_TEST_PROVIDER_MIRROR names (make test builds it), or else one built once per test run into
// the user's cache by scripts/eoslab-mirror.sh, which skips the build when the provider's sources
// have not changed. A cold build takes a couple of minutes.
func eoslabMirror(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("EOS_TEST_PROVIDER_MIRROR"); dir != "" {
		return dir
	}
	mirror.once.Do(func() {
		cache, err := os.UserCacheDir()
		if err != nil {
			mirror.err = fmt.Errorf("finding the cache directory: %w", err)
			return
		}
		mirror.dir = filepath.Join(cache, "eos", "providers")
		var stderr bytes.Buffer
		cmd := exec.Command(filepath.Join("..", "scripts", "eoslab-mirror.sh"), mirror.dir)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			mirror.err = fmt.Errorf("building the eoslab provider mirror: %w\n%s", err, stderr.Bytes())
		}
	})
	if mirror.err != nil {
		t.Fatal(mirror.err)
	}
	return mirror.dir
}

// terraformEnv is the environment of a terraform run against the eoslab mirror, with no registry
// and a simulated cloud of its own.
func terraformEnv(t *testing.T) []string {
	t.Helper()
	rc := fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["registry.terraform.io/eos/*"]
  }
  direct {
    exclude = ["registry.terraform.io/eos/*"]
  }
}
`, eoslabMirror(t))
	config := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(config, []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"TF_CLI_CONFIG_FILE="+config, "EOSLAB_ROOT="+t.TempDir())
}

func terraform(ctx context.Context, t *testing.T, bin, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("terraform %v: %v\n%s%s", args, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// writeModule writes a rendered module and its variables (terraform.tfvars.json) into a new
// directory.
func writeModule(t *testing.T, rt *RenderedTerraform) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range rt.Files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vars, err := json.Marshal(rt.Vars)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfvars.json"), vars, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestShippedModulesApplyOffline writes each shipped module's local variant with the variables
// Render gives it and runs fmt, init, validate, plan and apply against the eoslab provider from
// a filesystem mirror: the module must be formatted, accept the typed variables, create the
// resources the preview promises (other packages' tests name these addresses) and produce its
// outputs.
func TestShippedModulesApplyOffline(t *testing.T) {
	bin := terraformBinary(t)
	c := loadEmbedded(t)
	wantCreates := map[string][]string{
		"nextcloud": {"eoslab_dns_record.main", "eoslab_firewall.main", "eoslab_server.main", "eoslab_volume.data"},
		"grafana":   {"eoslab_dns_record.main", "eoslab_firewall.main", "eoslab_server.main"},
		"jenkins":   {"eoslab_dns_record.main", "eoslab_server.main", "eoslab_volume.data"},
		"authentik": {"eoslab_dns_record.main", "eoslab_firewall.main", "eoslab_server.main"},
	}
	wantDNS := map[string]string{
		"nextcloud": "cloud.test.test", "grafana": "grafana.test.test",
		"jenkins": "jenkins.test.test", "authentik": "auth.test.test",
	}
	requests := map[string]Request{
		"nextcloud": {Flags: map[string]Value{"sso": BoolValue(true)}, Env: "test"},
		"authentik": {Flags: map[string]Value{"frontend-for": StringValue(Service, "nextcloud")}, Env: "test"},
	}
	env := terraformEnv(t)
	for _, b := range c.Services() {
		t.Run(b.Name, func(t *testing.T) {
			req, ok := requests[b.Name]
			if !ok {
				req = Request{Env: "test"}
			}
			r, err := b.Render(req)
			if err != nil {
				t.Fatal(err)
			}
			if r.Terraform == nil || r.Terraform.Variant != DefaultVariant {
				t.Fatalf("terraform part %+v, want the %s variant", r.Terraform, DefaultVariant)
			}
			dir := writeModule(t, r.Terraform)
			ctx := t.Context()
			if out := terraform(ctx, t, bin, dir, env, "fmt", "-check", "-list=true", "-no-color"); len(out) > 0 {
				t.Errorf("not formatted (run terraform fmt): %s", out)
			}
			terraform(ctx, t, bin, dir, env, "init", "-input=false", "-backend=false", "-no-color")
			terraform(ctx, t, bin, dir, env, "validate", "-no-color")
			terraform(ctx, t, bin, dir, env, "plan", "-input=false", "-lock=false", "-no-color", "-out=plan.bin")
			var plan struct {
				ResourceChanges []struct {
					Address string `json:"address"`
					Change  struct {
						Actions []string `json:"actions"`
					} `json:"change"`
				} `json:"resource_changes"`
			}
			if err := json.Unmarshal(terraform(ctx, t, bin, dir, env, "show", "-json", "plan.bin"), &plan); err != nil {
				t.Fatal(err)
			}
			var creates []string
			for _, rc := range plan.ResourceChanges {
				if len(rc.Change.Actions) == 1 && rc.Change.Actions[0] == "create" {
					creates = append(creates, rc.Address)
				}
			}
			slices.Sort(creates)
			if got, want := creates, wantCreates[b.Name]; !slices.Equal(got, want) {
				t.Errorf("plan creates %v, want %v", got, want)
			}

			terraform(ctx, t, bin, dir, env, "apply", "-input=false", "-no-color", "plan.bin")
			var outputs map[string]struct {
				Value any `json:"value"`
			}
			if err := json.Unmarshal(terraform(ctx, t, bin, dir, env, "output", "-json"), &outputs); err != nil {
				t.Fatal(err)
			}
			if got := outputs["server_name"].Value; got != "proxy-"+b.Name+"-test" {
				t.Errorf("server_name = %#v, want proxy-%s-test", got, b.Name)
			}
			if got, _ := outputs["ipv4_address"].Value.(string); !isIPv4(got) {
				t.Errorf("ipv4_address = %#v, want an IPv4 address", outputs["ipv4_address"].Value)
			}
			if got := outputs["dns_name"].Value; got != wantDNS[b.Name] {
				t.Errorf("dns_name = %#v, want %s", got, wantDNS[b.Name])
			}
		})
	}
}

// TestShippedProductionVariants checks what can be checked of the production variants here:
// there is no provider registry, so they cannot be initialised, validated or planned. They must
// render, be formatted (TestCheckEmbedded runs terraform fmt on them), ask for Hetzner Cloud and
// Cloudflare at pinned versions, take the variables of the local variant and give its outputs,
// and take no credentials as variables (those come from HCLOUD_TOKEN and CLOUDFLARE_API_TOKEN).
func TestShippedProductionVariants(t *testing.T) {
	c := loadEmbedded(t)
	wantProviders := map[string]string{"hcloud": "hetznercloud/hcloud ~> 1.48", "cloudflare": "cloudflare/cloudflare ~> 4.40"}
	for _, b := range c.Services() {
		t.Run(b.Name, func(t *testing.T) {
			if got := b.VariantNames(); !slices.Equal(got, []string{"local", "production"}) {
				t.Fatalf("variants = %v, want [local production]", got)
			}
			local := inspectVariant(t, b, "local")
			prod := inspectVariant(t, b, "production")
			got := map[string]string{}
			for name, req := range prod.RequiredProviders {
				got[name] = req.Source + " " + strings.Join(req.VersionConstraints, ",")
			}
			if !mapsEqual(got, wantProviders) {
				t.Errorf("required providers = %v, want %v", got, wantProviders)
			}
			for name := range local.Variables {
				if _, ok := prod.Variables[name]; !ok {
					t.Errorf("variable %q of the local variant is missing in production", name)
				}
			}
			for name := range prod.Variables {
				if strings.Contains(name, "token") || strings.Contains(name, "password") {
					t.Errorf("variable %q looks like a credential; credentials come from the environment", name)
				}
			}
			if l, p := sortedKeys(local.Outputs), sortedKeys(prod.Outputs); !slices.Equal(l, p) {
				t.Errorf("outputs differ: local %v, production %v", l, p)
			}
		})
	}
}

func inspectVariant(t *testing.T, b *Blueprint, name string) *tfconfig.Module {
	t.Helper()
	v, ok := b.Variant(name)
	if !ok {
		t.Fatalf("%s has no variant %q", b.Name, name)
	}
	mod, diags := tfconfig.LoadModuleFromFilesystem(tfconfig.WrapFS(b.Files), v.Path)
	if diags.HasErrors() {
		t.Fatalf("inspecting %s: %v", v.Path, diags)
	}
	return mod
}

func isIPv4(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
