//go:build unix

package terraform

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/eosbot/eos/executor"
)

// A state lock held elsewhere is not the layer's failure either: the apply halts.
func TestLockedStateHalts(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	s := serverSpec("small")
	p := mustPlan(t, l, s)
	ud, release, err := l.lockUnit("local", s.Units[0])
	if err != nil {
		t.Fatal(err)
	}
	holder := holdLocalStateLock(t, ud.dir)
	release()
	res, err := l.Apply(testCtx(t), s, p, executor.Observe(nil, nil))
	holder()
	var halt *executor.HaltError
	if !errors.Is(err, ErrStateLocked) || !errors.As(err, &halt) || !halt.Untouched || res.Status != executor.ResultHalted {
		t.Fatalf("err = %v, result %+v; want an untouched halt for the lock", err, res)
	}
	if !strings.HasPrefix(res.Error, "stopped before changing anything: the state is locked by ") {
		t.Errorf("result error = %q", res.Error)
	}
}

// holdLocalStateLock takes the local backend's lock on dir's state the way another terraform
// process holds it (an fcntl lock on terraform.tfstate and the lock information beside it) and
// returns its release.
func holdLocalStateLock(t *testing.T, dir string) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "terraform.tfstate"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk); err != nil {
		f.Close()
		t.Fatalf("locking the state: %v", err)
	}
	info := `{"ID":"0c209495-b1ac-ac0e-64b7-07294d5eae2a","Operation":"OperationTypeApply","Info":"","Who":"ops@elsewhere","Version":"1.11.4","Created":"2026-11-23T03:25:53.471471247Z","Path":"terraform.tfstate"}`
	infoPath := filepath.Join(dir, ".terraform.tfstate.lock.info")
	if err := os.WriteFile(infoPath, []byte(info), 0o600); err != nil {
		t.Fatal(err)
	}
	return func() {
		os.Remove(infoPath)
		f.Close() // closing the file releases the fcntl lock
	}
}
