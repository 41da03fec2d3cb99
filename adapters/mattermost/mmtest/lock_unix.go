//go:build unix

package mmtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// holdShared takes a shared lock on the server's state directory for the rest of the test:
// tests of any process may use the server together, and Restart waits until they are done.
// Without a state directory there is nothing to restart and nothing to lock.
func holdShared(t testing.TB, state string) *os.File {
	t.Helper()
	if state == "" {
		return nil
	}
	f, err := os.OpenFile(filepath.Join(state, "tests.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("opening the server's test lock: %v", err)
	}
	t.Cleanup(func() { f.Close() }) // closing releases the lock
	if err := flock(f, syscall.LOCK_SH); err != nil {
		t.Fatalf("sharing the server: %v", err)
	}
	return f
}

// lockExclusive turns the test's shared hold into an exclusive one, waiting for every other
// test to let go; lockShared turns it back.
func lockExclusive(f *os.File) error { return flock(f, syscall.LOCK_EX) }
func lockShared(f *os.File) error    { return flock(f, syscall.LOCK_SH) }

// flock waits for the lock, retrying when a signal (the Go runtime's preemption among them)
// interrupts the wait.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			if err != nil {
				return fmt.Errorf("locking %s: %w", f.Name(), err)
			}
			return nil
		}
	}
}
