package main

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// checkout is a folder laid out as the repository is for scripts/run.sh: the script itself, and
// bin/eos, which is eos (a shell script here, body eos) when given.
func checkout(t *testing.T, eos string) string {
	t.Helper()
	dir := t.TempDir()
	script, err := os.ReadFile(filepath.Join("..", "..", "scripts", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"scripts", "bin", ".eos/vault"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "run.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	if eos != "" {
		if err := os.WriteFile(filepath.Join(dir, "bin", "eos"), []byte("#!/bin/sh\n"+eos), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runScript runs dir's run.sh with the caller's own Nomad, Vault and Salt (so it starts none)
// and env, and returns its output and exit code.
func runScript(t *testing.T, dir string, env ...string) (string, int) {
	t.Helper()
	c := exec.Command(filepath.Join(dir, "scripts", "run.sh"))
	c.Env = append(os.Environ(), "EOS_NOMAD_ADDR=http://127.0.0.1:1", "EOS_VAULT_ADDR=http://127.0.0.1:1",
		"EOS_SALT_URL=http://127.0.0.1:1", "EOS_LISTEN=", "EOS_CONFIG=")
	c.Env = append(c.Env, env...)
	out, err := c.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("run.sh: %v", err)
	}
	return string(out), c.ProcessState.ExitCode()
}

// A second make run in the same folder refuses at once and touches nothing: before this, its
// start stopped the first run's Vault and Salt and paused its Nomad agent (each start stops what
// an earlier run left behind), then found the store in use and exited, leaving the first run
// without its servers.
func TestASecondMakeRunRefusesAndLeavesTheFirstOnesServers(t *testing.T) {
	dir := checkout(t, "")
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

	// Its own Vault, Nomad and Salt unset: the second would start (stop first) them all.
	out, code := runScript(t, dir, "EOS_VAULT_ADDR=", "EOS_NOMAD_ADDR=", "EOS_SALT_URL=")
	if code != 1 {
		t.Fatalf("the second run.sh exited %d, want 1:\n%s", code, out)
	}
	if want := "another make run (pid " + strconv.Itoa(first.Process.Pid) + ") is using " + dir + "/.eos"; !strings.Contains(out, want) {
		t.Errorf("the second run.sh said:\n%s\nwant %q", out, want)
	}
	if err := vault.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the first run's Vault is gone after the second run.sh: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".eos", "run.pid")); strings.TrimSpace(string(b)) != strconv.Itoa(first.Process.Pid) {
		t.Errorf(".eos/run.pid = %q, want the first run's pid kept", b)
	}
}

// make run's status page takes a free port when 127.0.0.1:9747 is taken (the make run of
// another checkout), instead of eos refusing to start; an address the operator chose is kept.
func TestMakeRunTakesAFreePortWhenTheStatusPagesPortIsTaken(t *testing.T) {
	dir := checkout(t, `echo "listen=$EOS_LISTEN"`)
	ln, err := net.Listen("tcp", "127.0.0.1:9747")
	if err == nil {
		defer ln.Close()
	} // else something on this machine listens there already: taken all the same

	out, code := runScript(t, dir)
	if code != 0 || !strings.Contains(out, "listen=127.0.0.1:0") || !strings.Contains(out, "127.0.0.1:9747 is taken") {
		t.Errorf("with 9747 taken, run.sh exited %d and said:\n%s\nwant eos on 127.0.0.1:0, and why", code, out)
	}
	out, _ = runScript(t, dir, "EOS_LISTEN=127.0.0.1:9999")
	if !strings.Contains(out, "listen=127.0.0.1:9999") {
		t.Errorf("with EOS_LISTEN set, run.sh said:\n%s\nwant it kept", out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".eos", "run.pid")); !os.IsNotExist(err) {
		t.Errorf(".eos/run.pid is left after run.sh ended (%v)", err)
	}
}

// The servers make run starts never see Eos's own EOS_* variables, where its tokens are given
// (EOS_MATTERMOST_TOKEN=… make run, the local Vault's root token): the Nomad agent passes its
// environment on to every raw_exec task, so every local workload could read them.
func TestMakeRunsServersNeverSeeEosTokens(t *testing.T) {
	dir := checkout(t, "")
	cache := t.TempDir()
	bin := filepath.Join(cache, "eos", "nomad", "v1.4.1", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "nomad"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A nomad.sh that records the environment it starts the agent with.
	fake := `#!/bin/sh
case $1 in
start-durable | start-agent)
	mkdir -p "$2" && env >"$2/started-env" && echo "export EOS_TEST_NOMAD_ADDR=http://127.0.0.1:1" >"$2/env" ;;
esac
`
	if err := os.MkdirAll(filepath.Join(dir, "scripts", "testenv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "scripts", "testenv", "nomad.sh"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "eos"), []byte("#!/bin/sh\necho \"eos sees $EOS_MATTERMOST_TOKEN\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, code := runScript(t, dir, "EOS_NOMAD_ADDR=", "XDG_CACHE_HOME="+cache, "EOS_MATTERMOST_TOKEN=mm-must-not-leak")
	if code != 0 || !strings.Contains(out, "eos sees mm-must-not-leak") {
		t.Fatalf("run.sh exited %d and said:\n%s\nwant eos started with its token", code, out)
	}
	env, err := os.ReadFile(filepath.Join(dir, ".eos", "nomad-agent", "started-env"))
	if err != nil {
		t.Fatalf("the Nomad agent was not started: %v\n%s", err, out)
	}
	if strings.Contains(string(env), "mm-must-not-leak") || strings.Contains(string(env), "EOS_VAULT_ADDR") {
		t.Errorf("the Nomad agent was started with Eos's variables:\n%s", env)
	}
}
