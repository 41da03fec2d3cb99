package mmtest

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Restart restarts the server (same port, same data) with scripts/testenv/mattermost.sh and
// returns once it answers again. It first waits until no other test, of this process or of
// another package's, holds the server, and keeps the others out until the server is back.
// Without EOS_TEST_MATTERMOST_STATE the test is skipped.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	if s.State == "" {
		t.Skip(EnvState + " is not set: cannot restart the server")
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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := exec.CommandContext(ctx, script, "restart", s.State).CombinedOutput()
	if err != nil {
		t.Fatalf("restarting the server: %v\n%s", err, out)
	}
	t.Logf("the server restarted in %s", time.Since(start).Round(time.Millisecond))
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
