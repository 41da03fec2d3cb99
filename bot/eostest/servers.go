package eostest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/eosbot/eos/executor/salt"
)

// The real servers and machine resources the engine's tests need: each helper skips a test
// that lacks its server, unless CI is set, where a missing server fails the test.

// Missing stops a test that lacks a server or tool it needs: it fails when CI is set to any
// non-empty value (a test must never pass in CI by not running) and skips otherwise.
func Missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set, so this fails rather than skips: " + msg)
	}
	t.Skip(msg)
}

// SaltLayer is the Salt layer on the real master scripts/testenv/salt.sh started, targeting its
// minion; without it the test skips, unless CI is set. It returns the minion's id and its
// eos_data_dir.
func SaltLayer(t testing.TB) (*salt.Layer, string, string) {
	t.Helper()
	url := os.Getenv("EOS_TEST_SALT_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("EOS_TEST_SALT_URL is required in CI: start Salt with scripts/testenv/salt.sh")
		}
		t.Skip("EOS_TEST_SALT_URL not set; start Salt with scripts/testenv/salt.sh start DIR and source DIR/env")
	}
	minion := os.Getenv("EOS_TEST_SALT_MINION")
	l, err := salt.New(salt.Config{URL: url, Username: os.Getenv("EOS_TEST_SALT_USER"), Password: os.Getenv("EOS_TEST_SALT_PASSWORD"),
		EAuth: os.Getenv("EOS_TEST_SALT_EAUTH"), Targets: []string{minion}, Timeout: 2 * time.Minute, PollInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return l, minion, os.Getenv("EOS_TEST_SALT_DATA")
}

// NomadAgent finds the agent; without it the test skips, unless CI is set, where a missing
// agent is a failure rather than a silent pass.
func NomadAgent(t testing.TB) string {
	t.Helper()
	addr := os.Getenv("EOS_TEST_NOMAD_ADDR")
	if addr == "" {
		Missing(t, "EOS_TEST_NOMAD_ADDR not set; start an agent with scripts/testenv/nomad.sh start DIR and source DIR/env")
	}
	return addr
}

// FullDisk mounts a small tmpfs on dir (a real filesystem that runs out of space) and returns
// a function that fills it to the last byte. It needs root; without it the test skips, and in
// CI (where make test runs as root on these machines) a skip fails the run.
func FullDisk(t *testing.T, dir string) (fill func() (free func())) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("mounting a small tmpfs needs root")
		}
		t.Skip("mounting a small tmpfs needs root")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
	return func() func() {
		filler := filepath.Join(dir, "filler")
		f, err := os.Create(filler)
		if err != nil {
			t.Fatal(err)
		}
		chunk := make([]byte, 64<<10)
		for {
			if _, err = f.Write(chunk); err != nil {
				break
			}
		}
		f.Close()
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("filling %s: %v, want no space left", dir, err)
		}
		return func() {
			if err := os.Remove(filler); err != nil {
				t.Fatal(err)
			}
		}
	}
}
