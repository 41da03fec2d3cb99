package bot_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// fullDisk mounts a small tmpfs on dir (a real filesystem that runs out of space) and returns
// a function that fills it to the last byte. It needs root; without it the test skips, and in
// CI (where make test runs as root on these machines) a skip fails the run.
func fullDisk(t *testing.T, dir string) (fill func() (free func())) {
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

// An approval given while the disk Terraform works on is full is not dropped in silence: the
// answer says the disk is full, where, and that the approver adds the ✅ again once there is
// space; /healthz is not ready for the same reason meanwhile; and the next ✅ after space is
// freed runs the plan. (Before, the answer was "could not start: … no space left on device",
// the plan silently went back to waiting with the ✅ still shown, and /healthz answered 200.)
func TestAnApprovalUnderAFullDiskSaysWhatToDo(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	work := filepath.Join(data, "terraform")
	fill := fullDisk(t, work)
	h := eostest.New(t, eostest.Options{DataDir: data})
	if hl := h.Engine.Health(context.Background()); !hl.OK || hl.WorkDirs != "writable" {
		t.Fatalf("health before the disk fills = %+v, want ok with writable work dirs", hl)
	}
	p, id := preview(t, h, "alice", "@eos create grafana")
	free := fill()
	hl := h.Engine.Health(context.Background())
	if hl.OK || !strings.HasPrefix(hl.WorkDirs, work+": a run cannot write its working files there") || !strings.Contains(hl.WorkDirs, "no space left on device") {
		t.Errorf("health with the disk full = %+v, want not ready naming %s", hl, work)
	}
	after := h.Last()
	h.React("bob", p.ID, "+1")
	h.WaitText(after, "Plan "+id+" was approved but could not start: the disk holding "+work+" is full (no space left on device). Nothing changed, and your approval is not kept: free space there, then remove and add your ✅ again")
	h.Idle()
	if got, err := h.Store.Plan(id); err != nil || got.State != store.PlanPending || len(got.Approvals) != 0 {
		t.Fatalf("plan after the failed start: %+v, %v; want pending with no approval kept", got, err)
	}
	free()
	if hl := h.Engine.Health(context.Background()); !hl.OK {
		t.Errorf("health once space is freed = %+v, want ok", hl)
	}
	h.Unreact("bob", p.ID, "+1")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
}
