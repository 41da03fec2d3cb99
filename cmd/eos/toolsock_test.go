package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// toolRun is what one tool printed on stdout and how it ended.
type toolRun struct {
	out  string
	code int
}

// The operator's tools work beside a running Eos: while `eos serve` holds the bbolt store,
// eos audit (with its flags), eos export and eos plan answer through its socket, and print
// exactly what they print on the same store when no Eos runs. The socket is the owner's only,
// a preview through it stores nothing, and the socket goes when Eos stops.
func TestToolsPrintTheSameBesideARunningEos(t *testing.T) {
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("terraform is needed: %v", err)
	}
	bin := eosBinary(t)
	root := t.TempDir()
	data := filepath.Join(root, "data")
	config := filepath.Join(root, "eos.hcl")
	if err := os.WriteFile(config, []byte("environments = [\"local\", \"staging\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "EOS_CONFIG="+config, "EOS_DATA_DIR="+data, "EOS_LOG_LEVEL=warn", "EOS_LISTEN=off",
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t))
	tool := func(args ...string) toolRun {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) || ctx.Err() != nil {
			t.Fatalf("eos %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return toolRun{string(out), cmd.ProcessState.ExitCode()}
	}
	exportA, exportB := filepath.Join(root, "export-a"), filepath.Join(root, "export-b")
	commands := [][]string{
		{"audit"},
		{"audit", "--json"},
		{"audit", "--service", "grafana"},
		{"audit", "--json", "--service", "jenkins"},
		{"plan", "create", "jenkins", "--storage", "300G", "--executors", "4", "in", "staging"},
		{"plan", "--user", "carol", "update", "grafana", "--port", "3002", "in", "local"},
		{"plan", "create", "nosuchservice"},
	}

	serve := exec.Command(bin, "serve")
	serve.Env = env
	stdin, _ := serve.StdinPipe()
	stdout, _ := serve.StdoutPipe()
	serve.Stderr = serve.Stdout
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill(); serve.Wait() })
	said := follow(stdout)
	io.WriteString(stdin, "@eos create grafana --port 3001\n")
	said.waitFor(t, "React ✅ to approve")
	io.WriteString(stdin, "/as bob\n/react 2 +1\n")
	said.waitFor(t, "done in")

	sock := filepath.Join(data, "eos.sock")
	fi, err := os.Stat(sock)
	if err != nil {
		t.Fatalf("eos serve on bbolt has no socket for the tools: %v", err)
	}
	if fi.Mode()&fs.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %s, want a socket of mode 0600 (the owner's only)", sock, fi.Mode())
	}
	if _, err := store.Open(filepath.Join(data, "eos.db"), 100*time.Millisecond); err == nil {
		t.Fatal("the store opened beside eos serve: the tools would not need its socket, and this test proves nothing")
	}

	before := tool("audit", "--json")
	served := map[string]toolRun{}
	for _, args := range commands {
		served[strings.Join(args, " ")] = tool(args...)
	}
	servedExport := tool("export", exportA)
	if after := tool("audit", "--json"); after != before {
		t.Errorf("previews through the running Eos wrote to the audit log:\nbefore:\n%s\nafter:\n%s", before.out, after.out)
	}
	if !strings.Contains(before.out, `"kind":"result"`) {
		t.Errorf("the audit through the running Eos lacks the run's result:\n%s", before.out)
	}
	if got := served["plan create jenkins --storage 300G --executors 4 in staging"]; got.code != 0 ||
		!strings.Contains(got.out, `ask without "plan": @eos create jenkins --storage 300G --executors 4 in staging`) {
		t.Errorf("eos plan (exit %d) does not repeat the whole request, flags and environment, in what to ask:\n%s", got.code, got.out)
	}
	if got := served["plan --user carol update grafana --port 3002 in local"]; !strings.Contains(got.out, "asked by @carol") ||
		!strings.Contains(got.out, "Declared values: --port 3001 → 3002") {
		t.Errorf("eos plan of an update does not name who asks and the declared value it changes, as a preview in chat does:\n%s", got.out)
	}
	if got := served["plan create nosuchservice"]; got.code != 1 {
		t.Errorf("eos plan of an unknown service through the running Eos exits %d, want 1:\n%s", got.code, got.out)
	}

	serve.Process.Signal(syscall.SIGTERM)
	if err := serve.Wait(); err != nil {
		t.Fatalf("eos serve did not stop cleanly: %v\n%s", err, said.seen.String())
	}
	if _, err := os.Lstat(sock); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("eos serve left its socket behind (%v)", err)
	}

	for _, args := range commands {
		key := strings.Join(args, " ")
		if direct := tool(args...); direct != served[key] {
			t.Errorf("eos %s prints differently through the running Eos:\nthrough it (exit %d):\n%s\non the store itself (exit %d):\n%s",
				key, served[key].code, served[key].out, direct.code, direct.out)
		}
	}
	direct := tool("export", exportB)
	if strings.ReplaceAll(servedExport.out, exportA, exportB) != direct.out || direct.code != 0 || !strings.Contains(direct.out, "exported 1 services") {
		t.Errorf("eos export says %q through the running Eos, %q on the store itself", servedExport.out, direct.out)
	}
	if a, b := readTree(t, exportA), readTree(t, exportB); a != b {
		t.Errorf("eos export wrote different files through the running Eos:\n%s\non the store itself:\n%s", a, b)
	}
}

// readTree is every file under dir with its content, in path order.
func readTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		b.WriteString("== " + rel + "\n" + string(raw))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// runEos runs the eos command in this process and returns what it printed and its error.
func runEos(args ...string) (string, error) {
	cmd := rootCmd()
	var out strings.Builder
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

// A socket left behind by an Eos that died (nobody listens on it) does not hold the tools up:
// they open the store themselves at once.
func TestToolsOpenTheStoreWhenTheSocketIsStale(t *testing.T) {
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Append(context.Background(), store.Entry{At: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), Kind: "request", User: "alice", Service: "grafana", Env: "local", Text: "create grafana"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ln, err := net.Listen("unix", filepath.Join(data, "eos.sock"))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close() // the socket file stays; nothing answers on it, as after a SIGKILL
	if _, err := os.Lstat(filepath.Join(data, "eos.sock")); err != nil {
		t.Fatalf("no stale socket to test with: %v", err)
	}
	t.Setenv("EOS_DATA_DIR", data)
	start := time.Now()
	out, err := runEos("audit")
	if err != nil || !strings.Contains(out, "@alice") || !strings.Contains(out, "create grafana") {
		t.Fatalf("eos audit beside a stale socket: %v\n%s", err, out)
	}
	if out, err := runEos("export", filepath.Join(t.TempDir(), "state")); err != nil || !strings.HasPrefix(out, "exported 0 services") {
		t.Fatalf("eos export beside a stale socket: %v\n%s", err, out)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the tools took %s beside a stale socket", took)
	}
}

// When another process holds the store and nothing answers on the socket, the tools say both
// what they tried and what to do, instead of only that the store is held.
func TestToolsSayWhatTheyTriedWhenNoEosAnswers(t *testing.T) {
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	t.Setenv("EOS_DATA_DIR", data)
	_, err = runEos("audit")
	if err == nil {
		t.Fatal("eos audit read a store another process holds")
	}
	for _, want := range []string{filepath.Join(data, "eos.db") + ": another process holds it (waited 2s)",
		"no Eos answers on " + filepath.Join(data, "eos.sock"), "try again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
}

// eos chat holding the bbolt store answers the tools too. Killed, it leaves its socket behind,
// and the tools then open the store themselves at once, printing the same.
func TestToolsBesideEosChatAndAfterItIsKilled(t *testing.T) {
	bin := eosBinary(t)
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Append(context.Background(), store.Entry{At: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), Kind: "request", User: "alice", Service: "grafana", Env: "local", Text: "create grafana"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	env := append(os.Environ(), "EOS_DATA_DIR="+data, "EOS_LOG_LEVEL=warn", "EOS_LISTEN=off")
	audit := func() (string, time.Duration) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, bin, "audit")
		cmd.Env = env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("eos audit: %v\n%s", err, out)
		}
		return string(out), time.Since(start)
	}

	chat := exec.Command(bin, "chat", "--user", "alice")
	chat.Env = env
	stdin, _ := chat.StdinPipe() // held open: the chat waits for lines
	defer stdin.Close()
	chat.Stdout, chat.Stderr = io.Discard, io.Discard
	if err := chat.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { chat.Process.Kill(); chat.Wait() })
	sock := filepath.Join(data, "eos.sock")
	for deadline := time.Now().Add(time.Minute); ; {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("eos chat made no socket for the tools within a minute")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := store.Open(filepath.Join(data, "eos.db"), 100*time.Millisecond); err == nil {
		t.Fatal("the store opened beside eos chat: this test proves nothing")
	}
	through, _ := audit()
	if !strings.Contains(through, "@alice") || !strings.Contains(through, "create grafana") {
		t.Fatalf("eos audit beside eos chat:\n%s", through)
	}

	chat.Process.Kill()
	chat.Wait()
	if _, err := os.Lstat(sock); err != nil {
		t.Fatalf("the killed eos chat left no socket to test with: %v", err)
	}
	direct, took := audit()
	if direct != through {
		t.Errorf("eos audit after eos chat was killed:\n%s\nbeside it:\n%s", direct, through)
	}
	if took > 5*time.Second {
		t.Errorf("eos audit took %s beside the socket of a killed Eos", took)
	}
}
