package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
)

// eosBinary builds the eos command once per test run.
func eosBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "eos")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("building eos: %v\n%s", err, out)
	}
	return bin
}

// transcript reads a process's output line by line and lets a test wait for a line.
type transcript struct {
	lines chan string
	seen  strings.Builder
}

func follow(r io.Reader) *transcript {
	tr := &transcript{lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			tr.lines <- sc.Text()
		}
		close(tr.lines)
	}()
	return tr
}

func (tr *transcript) waitFor(t *testing.T, substr string) string {
	t.Helper()
	deadline := time.After(90 * time.Second)
	for {
		select {
		case l, ok := <-tr.lines:
			if !ok {
				t.Fatalf("eos ended before saying %q:\n%s", substr, tr.seen.String())
			}
			tr.seen.WriteString(l + "\n")
			if strings.Contains(l, substr) {
				return l
			}
		case <-deadline:
			t.Fatalf("eos did not say %q:\n%s", substr, tr.seen.String())
		}
	}
}

// Kill Eos with SIGKILL in the middle of a run and start it again: the run is recorded as
// interrupted, its lock is released, and a new request for the service gets a plan for what
// is left instead of applying anything twice.
func TestSIGKILLMidRun(t *testing.T) {
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("terraform is needed: %v", err)
	}
	bin := eosBinary(t)
	data := t.TempDir()
	env := append(os.Environ(), "EOS_DATA_DIR="+data, "EOS_LOG_LEVEL=warn", "EOSLAB_DELAY=2s", "EOS_LISTEN=off",
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t))

	cmd := exec.Command(bin, "chat", "--user", "alice")
	cmd.Env = env
	// Its own process group, so the kill takes terraform with it, as a crash of the machine
	// or an OOM kill of the container would.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	out := follow(stdout)
	io.WriteString(stdin, "@eos create grafana\n")
	out.waitFor(t, "React ✅ to approve")
	io.WriteString(stdin, "/as bob\n/react 2 +1\n")
	out.waitFor(t, "Terraform ⏳") // the run is applying, slowly
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	// Start again: recovery marks the run interrupted and frees the lock.
	var again *exec.Cmd
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	again = exec.CommandContext(ctx, bin, "chat", "--user", "alice")
	again.Env = env
	again.Stdin = strings.NewReader("@eos history grafana\n@eos create grafana\n")
	text, err := again.CombinedOutput()
	if err != nil {
		t.Fatalf("second eos: %v\n%s", err, text)
	}
	s := string(text)
	if !strings.Contains(s, "interrupted") {
		t.Errorf("history after the restart does not show the run interrupted:\n%s", s)
	}
	if strings.Contains(s, "is being changed by run") || !strings.Contains(s, "React ✅ to approve") {
		t.Errorf("the lock was not released; a new request got no plan:\n%s", s)
	}

	audit := exec.Command(bin, "audit", "--json", "--service", "grafana")
	audit.Env = env
	raw, err := audit.Output()
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var e struct{ Kind, Text string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		kinds = append(kinds, e.Kind+":"+strings.SplitN(e.Text, " ", 2)[0])
	}
	got := strings.Join(kinds, " ")
	if !strings.Contains(got, "run:run") || !strings.Contains(got, "result:interrupted:") {
		t.Errorf("audit = %s, want a run and its interrupted result", got)
	}
}

// SIGTERM in the middle of a run lets the run finish within the grace period, records it as
// done, and the process exits cleanly.
func TestSIGTERMFinishesTheRun(t *testing.T) {
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("terraform is needed: %v", err)
	}
	bin := eosBinary(t)
	data := t.TempDir()
	env := append(os.Environ(), "EOS_DATA_DIR="+data, "EOS_LOG_LEVEL=warn", "EOSLAB_DELAY=1s", "EOS_LISTEN=off",
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t))
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	out := follow(stdout)
	io.WriteString(stdin, "@eos create grafana\n")
	out.waitFor(t, "React ✅ to approve")
	io.WriteString(stdin, "/as bob\n/react 2 +1\n")
	out.waitFor(t, "Terraform ⏳")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	out.waitFor(t, "done in")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("eos did not exit cleanly after SIGTERM: %v\n%s", err, out.seen.String())
	}
	for _, f := range []string{"server/proxy-grafana-local.json", "dns_record/grafana.local.test_A.json"} {
		if _, err := os.Stat(filepath.Join(data, "cloud", f)); err != nil {
			t.Errorf("the run did not finish: %s missing (%v)", f, err)
		}
	}
}
