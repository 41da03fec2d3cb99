package catalog

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// terraformBinary finds terraform for the module tests. They are integration tests: without the
// binary they skip, except in CI, where a missing binary must not pass silently.
func terraformBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs terraform; skipped with -short")
	}
	bin, err := exec.LookPath("terraform")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("terraform is not on PATH: %v", err)
		}
		t.Skipf("terraform is not on PATH: %v", err)
	}
	return bin
}

func terraform(ctx context.Context, t *testing.T, bin, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE="+os.DevNull)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("terraform %v: %v\n%s%s", args, err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// TestShippedModulesPlanOffline writes each shipped module with the variables Render gives it
// (as terraform.tfvars.json) and runs fmt, init, validate and plan: the module must be
// formatted, need no provider download, accept the typed variables, and create the resources
// the preview promises.
func TestShippedModulesPlanOffline(t *testing.T) {
	bin := terraformBinary(t)
	c := loadEmbedded(t)
	wantCreates := map[string][]string{
		"nextcloud": {"terraform_data.dns", "terraform_data.server", "terraform_data.volume"},
		"grafana":   {"terraform_data.dns", "terraform_data.server"},
		"jenkins":   {"terraform_data.server", "terraform_data.volume"},
		"authentik": {"terraform_data.dns", "terraform_data.server"},
	}
	requests := map[string]Request{
		"nextcloud": {Flags: map[string]Value{"sso": BoolValue(true)}, Env: "test"},
		"authentik": {Flags: map[string]Value{"frontend-for": StringValue(Service, "nextcloud")}, Env: "test"},
	}
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
			if r.Terraform == nil {
				t.Fatal("no terraform part")
			}
			dir := t.TempDir()
			for rel, content := range r.Terraform.Files {
				p := filepath.Join(dir, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			vars, err := json.Marshal(r.Terraform.Vars)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "terraform.tfvars.json"), vars, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx := t.Context()
			if out := terraform(ctx, t, bin, dir, "fmt", "-check", "-list=true", "-no-color"); len(out) > 0 {
				t.Errorf("not formatted (run terraform fmt): %s", out)
			}
			terraform(ctx, t, bin, dir, "init", "-input=false", "-backend=false", "-no-color")
			terraform(ctx, t, bin, dir, "validate", "-no-color")
			terraform(ctx, t, bin, dir, "plan", "-input=false", "-lock=false", "-no-color", "-out=plan.bin")
			var plan struct {
				ResourceChanges []struct {
					Address string `json:"address"`
					Change  struct {
						Actions []string `json:"actions"`
					} `json:"change"`
				} `json:"resource_changes"`
			}
			if err := json.Unmarshal(terraform(ctx, t, bin, dir, "show", "-json", "plan.bin"), &plan); err != nil {
				t.Fatal(err)
			}
			var creates []string
			for _, rc := range plan.ResourceChanges {
				if len(rc.Change.Actions) == 1 && rc.Change.Actions[0] == "create" {
					creates = append(creates, rc.Address)
				}
			}
			if got, want := creates, wantCreates[b.Name]; !slices.Equal(got, want) {
				t.Errorf("plan creates %v, want %v", got, want)
			}
		})
	}
}
