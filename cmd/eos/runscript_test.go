package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A second make run in the same folder refuses at once and touches nothing: before this, its
// start stopped the first run's Vault and Salt and paused its Nomad agent (each start stops what
// an earlier run left behind), then found the store in use and exited, leaving the first run
// without its servers.
func TestASecondMakeRunRefusesAndLeavesTheFirstOnesServers(t *testing.T) {
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join("..", "..", "scripts", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"scripts", ".eos/vault"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "run.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	// The first make run (a process named run.sh) and its Vault server (another process).
	start := func(argv0 string) *exec.Cmd {
		c := exec.Command("bash", "-c", `exec -a "$0" sleep 300`, argv0)
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	first, vault := start("scripts/run.sh"), start("vault")
	write := func(name string, pid int) {
		if err := os.WriteFile(filepath.Join(dir, ".eos", name), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("run.pid", first.Process.Pid)
	write("vault/vault.pid", vault.Process.Pid)

	second := exec.Command(filepath.Join(dir, "scripts", "run.sh"))
	second.Env = append(os.Environ(), "EOS_VAULT_ADDR=", "EOS_NOMAD_ADDR=", "EOS_SALT_URL=")
	out, err := second.CombinedOutput()
	if code := second.ProcessState.ExitCode(); err == nil || code != 1 {
		t.Fatalf("the second run.sh exited %d (%v), want 1:\n%s", code, err, out)
	}
	if want := "another make run (pid " + strconv.Itoa(first.Process.Pid) + ") is using " + dir + "/.eos"; !strings.Contains(string(out), want) {
		t.Errorf("the second run.sh said:\n%s\nwant %q", out, want)
	}
	if err := vault.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the first run's Vault is gone after the second run.sh: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".eos", "run.pid")); strings.TrimSpace(string(b)) != strconv.Itoa(first.Process.Pid) {
		t.Errorf(".eos/run.pid = %q, want the first run's pid kept", b)
	}
}
