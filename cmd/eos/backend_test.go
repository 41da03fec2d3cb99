package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
)

// pgConn is the PostgreSQL that scripts/testenv/postgres.sh started; the test skips without
// it, unless CI is set.
func pgConn(t *testing.T) string {
	t.Helper()
	conn := os.Getenv("EOS_TEST_PG_CONN")
	if conn == "" {
		missing(t, "EOS_TEST_PG_CONN not set; scripts/testenv/postgres.sh start DIR sets it (scripts/test.sh does)")
	}
	return conn
}

// eosProcess is one `eos chat` with its own data directory.
type eosProcess struct {
	stdin io.WriteCloser
	out   *transcript
}

func startChat(t *testing.T, bin, config string, env []string) *eosProcess {
	t.Helper()
	cmd := exec.Command(bin, "chat", "--user", "alice", "--config", config)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	return &eosProcess{stdin: stdin, out: follow(stdout)}
}

func (p *eosProcess) say(t *testing.T, lines string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, lines); err != nil {
		t.Fatal(err)
	}
}

// outcome waits until a process says one of subs in chat (log lines do not count) and returns
// the one it said.
func (p *eosProcess) outcome(t *testing.T, subs ...string) string {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case l, ok := <-p.out.lines:
			if !ok {
				t.Fatalf("eos ended before saying any of %q:\n%s", subs, p.out.seen.String())
			}
			p.out.seen.WriteString(l + "\n")
			for _, s := range subs {
				if strings.Contains(l, s) && !strings.Contains(l, "level=") {
					return s
				}
			}
		case <-deadline:
			t.Fatalf("eos said none of %q:\n%s", subs, p.out.seen.String())
		}
	}
}

// Two Eos processes with their own data directories share one pg backend (and the simulated
// cloud the state describes). Both are asked to create grafana and both requests are approved
// at once: exactly one applies; the other says the state is locked and by whom; afterwards
// the loser plans no changes.
func TestTwoEosOnOnePgBackend(t *testing.T) {
	conn := pgConn(t)
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("terraform is needed: %v", err)
	}
	bin := eosBinary(t)
	root := t.TempDir()
	schema := fmt.Sprintf("eos_cmd_test_%d", time.Now().UnixNano())
	env := append(os.Environ(), "EOS_LOG_LEVEL=warn", "EOSLAB_DELAY=3s", "EOS_LISTEN=off",
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t))
	procs := make([]*eosProcess, 2)
	for i := range procs {
		config := filepath.Join(root, fmt.Sprintf("eos%d.hcl", i))
		text := fmt.Sprintf(`data_dir = %q
terraform {
  cloud_dir = %q
  backend {
    type   = "pg"
    config = { conn_str = %q, schema_name = %q }
  }
}
`, filepath.Join(root, fmt.Sprintf("data%d", i)), filepath.Join(root, "cloud"), conn, schema)
		if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		procs[i] = startChat(t, bin, config, env)
	}
	// One request after the other: two plans at the very same moment would already meet at
	// the lock, and this test is about the applies.
	for _, p := range procs {
		p.say(t, "@eos create grafana\n")
		p.out.waitFor(t, "React ✅ to approve")
	}
	for _, p := range procs {
		p.say(t, "/as bob\n/react 2 +1\n")
	}

	who := currentWho(t)
	const done, locked = "done in", "the state is locked by "
	results := []string{procs[0].outcome(t, done, locked), procs[1].outcome(t, done, locked)}
	if results[0] == results[1] {
		t.Fatalf("outcomes %q; want one run done and one refused by the lock\nfirst:\n%s\nsecond:\n%s",
			results, procs[0].out.seen.String(), procs[1].out.seen.String())
	}
	loser := procs[1]
	if results[0] == locked {
		loser = procs[0]
	}
	var said string
	for _, l := range strings.Split(loser.out.seen.String(), "\n") {
		if strings.Contains(l, locked) && !strings.Contains(l, "level=") {
			said = l // a chat line, not a log line
		}
	}
	t.Logf("the loser said: %s", strings.TrimSpace(said))
	if !strings.Contains(said, locked+who+" pid ") || !strings.Contains(said, " since ") {
		t.Errorf("the loser's message does not name the holder %s: %q\n%s", who, said, loser.out.seen.String())
	}
	if strings.Contains(loser.out.seen.String(), done) {
		t.Errorf("the loser applied too:\n%s", loser.out.seen.String())
	}
	for _, f := range []string{"server/proxy-grafana-local.json", "dns_record/grafana.local.test_A.json"} {
		if _, err := os.Stat(filepath.Join(root, "cloud", f)); err != nil {
			t.Errorf("the winner's apply did not create %s: %v", f, err)
		}
	}

	// The loser asks again once the winner is done: the shared state has everything.
	loser.say(t, "/as alice\n@eos create grafana\n")
	if got := loser.outcome(t, "Terraform | no changes", "React ✅ to approve"); got != "Terraform | no changes" {
		t.Errorf("the loser's retry does not plan no changes:\n%s", loser.out.seen.String())
	}
}

// currentWho is this machine's user@host, as the Terraform layer names lock holders.
func currentWho(t *testing.T) string {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	return u.Username + "@" + host
}
