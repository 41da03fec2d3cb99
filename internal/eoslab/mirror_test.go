package eoslab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMirrorScriptServesTerraform builds the provider with
// scripts/eoslab-mirror.sh, as operators and the Terraform layer do, and
// drives the real terraform CLI against the mirror: init, apply, drift seen
// by a refresh-only plan, and a rebuild under a new version picked up by
// init -upgrade. It is slow (it compiles the provider) and is the only such
// test.
func TestMirrorScriptServesTerraform(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		msg := "go is not on PATH, so the provider cannot be built"
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set, so this fails rather than skips: " + msg)
		}
		t.Skip(msg)
	}
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		var err error
		if tf, err = exec.LookPath("terraform"); err != nil {
			t.Fatal("terraform is not on PATH and TF_ACC_TERRAFORM_PATH is unset")
		}
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "eoslab-mirror.sh"))
	if err != nil {
		t.Fatal(err)
	}
	deadline, ok := t.Deadline()
	if !ok {
		deadline = time.Now().Add(15 * time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline.Add(-10*time.Second))
	defer cancel()
	mirror, module, cloud := t.TempDir(), t.TempDir(), t.TempDir()

	v1, _ := runMirrorScript(ctx, t, script, mirror, "")
	if !regexp.MustCompile(`^0\.1\.\d+$`).MatchString(v1) {
		t.Fatalf("computed version %q, want 0.1.N", v1)
	}
	bin := mirrorBinary(mirror, v1)
	if out, err := exec.CommandContext(ctx, bin, "-version").Output(); err != nil || strings.TrimSpace(string(out)) != v1 {
		t.Errorf("%s -version = %q, %v; want %q", bin, out, err, v1)
	}
	built, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	again, progress := runMirrorScript(ctx, t, script, mirror, "")
	if again != v1 || !strings.Contains(progress, "not rebuilding") {
		t.Errorf("second run: version %q (want %q), stderr %q: want the build skipped", again, v1, progress)
	}
	if st, err := os.Stat(bin); err != nil || !st.ModTime().Equal(built.ModTime()) {
		t.Errorf("second run touched the binary: %v", err)
	}
	rc, err := os.ReadFile(filepath.Join(mirror, "terraformrc.example"))
	if err != nil || !strings.Contains(string(rc), fmt.Sprintf("path    = %q", mirror)) ||
		!strings.Contains(string(rc), `exclude = ["registry.terraform.io/eos/*"]`) {
		t.Fatalf("terraformrc.example = %q, %v; want a filesystem_mirror at %s", rc, err, mirror)
	}

	writeModule(t, module, cloud)
	run := terraformRunner(ctx, t, tf, module, filepath.Join(mirror, "terraformrc.example"))
	run(0, "init")
	run(0, "apply", "-auto-approve")
	serverFile := objectPath(cloud, "server", "web")
	if err := fileHas(cloud, "server", "web", map[string]any{"size": "small", "status": "running"})(nil); err != nil {
		t.Fatalf("after apply: %v", err)
	}

	editObject(t, cloud, "server", "web", func(m map[string]any) { m["size"] = "large" })
	drift := run(2, "plan", "-refresh-only", "-detailed-exitcode")
	if !regexp.MustCompile(`~ size\s+= "small" -> "large"`).MatchString(drift) {
		t.Errorf("refresh-only plan does not show the drift:\n%s", drift)
	}

	v2, _ := runMirrorScript(ctx, t, script, mirror, "0.2.0")
	if v2 != "0.2.0" {
		t.Fatalf("EOSLAB_VERSION=0.2.0 gave version %q", v2)
	}
	if _, err := os.Stat(filepath.Dir(filepath.Dir(bin))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale version %s still in the mirror (err=%v)", v1, err)
	}
	run(1, "init") // the lock file names v1, which is gone: -upgrade is required
	run(0, "init", "-upgrade")
	lock, err := os.ReadFile(filepath.Join(module, ".terraform.lock.hcl"))
	if err != nil || !strings.Contains(string(lock), `version     = "0.2.0"`) {
		t.Errorf("lock file after init -upgrade does not pin 0.2.0 (%v):\n%s", err, lock)
	}
	run(0, "apply", "-auto-approve")
	if err := fileHas(cloud, "server", "web", map[string]any{"size": "small"})(nil); err != nil {
		t.Errorf("apply with the rebuilt provider did not undo the drift: %v", err)
	}
	run(0, "destroy", "-auto-approve")
	if _, err := os.Stat(serverFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("destroy left %s (err=%v)", serverFile, err)
	}
}

// runMirrorScript runs the script and returns its stdout (the version) and stderr.
func runMirrorScript(ctx context.Context, t *testing.T, script, out, version string) (string, string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "bash", script, out)
	cmd.Env = append(os.Environ(), "EOSLAB_VERSION="+version)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", script, out, err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), stderr.String()
}

func mirrorBinary(mirror, version string) string {
	return filepath.Join(mirror, "registry.terraform.io", "eos", "eoslab", version,
		goEnv("GOOS")+"_"+goEnv("GOARCH"), "terraform-provider-eoslab_v"+version)
}

func goEnv(name string) string {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

func writeModule(t *testing.T, module, cloud string) {
	t.Helper()
	main := fmt.Sprintf(`terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

provider "eoslab" {
  root = %q
}

resource "eoslab_server" "web" {
  name  = "web"
  size  = "small"
  image = "debian-12"
}
`, cloud)
	if err := os.WriteFile(filepath.Join(module, "main.tf"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
}

// terraformRunner returns a function that runs terraform in module with the
// mirror's CLI config, fails the test unless it exits with want, and returns
// its combined output.
func terraformRunner(ctx context.Context, t *testing.T, tf, module, cliConfig string) func(want int, args ...string) string {
	return func(want int, args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(ctx, tf, append(args, "-no-color", "-input=false")...)
		cmd.Dir = module
		cmd.Env = append(os.Environ(),
			"TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_PLUGIN_CACHE_DIR=")
		out, err := cmd.CombinedOutput()
		code := 0
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			code = exitErr.ExitCode()
		} else if err != nil {
			t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
		}
		if code != want {
			t.Fatalf("terraform %s exited %d, want %d:\n%s", strings.Join(args, " "), code, want, out)
		}
		return string(out)
	}
}
