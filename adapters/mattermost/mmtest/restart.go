package mmtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stopTimeout bounds the server's graceful stop before it is killed.
const stopTimeout = 30 * time.Second

// Restart restarts the server (same port, same data) with scripts/testenv/mattermost.sh and
// returns once it answers again. It first waits until no other test, of this process or of
// another package's, holds the server, and keeps the others out until the server is back.
// Without EOS_TEST_MATTERMOST_STATE the test is skipped, except in CI, where it fails.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Outage(t, nil)
}

// Outage is Restart with a pause: it stops the server, calls whileDown while nothing answers
// on the server's port, then starts the server again and returns once it answers. The server
// is started again even when whileDown fails the test. A nil whileDown is a plain Restart.
func (s *Server) Outage(t testing.TB, whileDown func()) {
	t.Helper()
	if s.State == "" {
		missing(t, EnvState+" is not set: cannot restart the server")
	}
	script, err := script()
	if err != nil {
		t.Fatal(err)
	}
	if err := lockExclusive(s.lock); err != nil {
		t.Fatalf("waiting for the other tests to leave the server: %v", err)
	}
	defer func() {
		if err := lockShared(s.lock); err != nil {
			t.Errorf("sharing the server again: %v", err)
		}
	}()
	start := time.Now()
	if whileDown != nil {
		if err := stopServer(s.State); err != nil {
			t.Fatalf("stopping the server: %v", err)
		}
		t.Logf("the server stopped in %s", time.Since(start).Round(time.Millisecond))
		// Deferred, so that the server comes back after a whileDown that fails the test.
		defer func() {
			if err := restart(script, s.State); err != nil {
				t.Errorf("starting the server again: %v", err)
			}
		}()
		whileDown()
		return
	}
	if err := restart(script, s.State); err != nil {
		t.Fatalf("restarting the server: %v", err)
	}
	t.Logf("the server restarted in %s", time.Since(start).Round(time.Millisecond))
}

// restart runs the script's restart: it stops the server if it still runs, starts it on the
// same port and waits until it answers.
func restart(script, state string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, script, "restart", state).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s restart: %w\n%s", script, err, out)
	}
	return nil
}

// stopServer stops the server the script started, as the script does: SIGTERM, and SIGKILL
// if it has not exited within stopTimeout. It returns once the process is gone, so its
// sockets are closed.
func stopServer(state string) error {
	data, err := os.ReadFile(filepath.Join(state, "mattermost.pid"))
	if err != nil {
		return fmt.Errorf("reading the server's pid: %w", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return fmt.Errorf("the server's pid file holds %q: %w", data, err)
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return fmt.Errorf("finding the server's process %d: %w", pid, err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		return fmt.Errorf("stopping the server's process %d: %w", pid, err)
	}
	deadline, killed := time.Now().Add(stopTimeout), false
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for p.Signal(syscall.Signal(0)) == nil {
		switch {
		case time.Now().Before(deadline):
		case killed:
			return fmt.Errorf("the server's process %d is still there %s after SIGKILL", pid, stopTimeout)
		default:
			if err := p.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
				return fmt.Errorf("killing the server's process %d: %w", pid, err)
			}
			deadline, killed = time.Now().Add(stopTimeout), true
		}
		<-tick.C
	}
	return nil
}

// script finds scripts/testenv/mattermost.sh in the module holding the test's directory.
func script() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "scripts", "testenv", "mattermost.sh"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the test's directory: cannot find scripts/testenv/mattermost.sh")
		}
		dir = parent
	}
}
