package salt

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// stateSpec is a one-unit spec whose state is text, rendered with pillar; holds are the
// paths its blueprint says hold data.
func stateSpec(service, text string, pillar map[string]any, holds []string) executor.Spec {
	return executor.Spec{Verb: "update", Target: service, Env: "local", Units: []executor.Unit{{
		Service: service,
		Salt:    &executor.SaltPart{State: service + ".sls", Text: text, Pillar: pillar, HoldsData: holds},
	}}}
}

// changeAt finds the plan's change at address, or fails the test.
func changeAt(t *testing.T, p executor.LayerPlan, address string) executor.Change {
	t.Helper()
	for _, c := range p.Changes {
		if c.Address == address {
			return c
		}
	}
	t.Fatalf("no change at %q among %+v", address, p.Changes)
	return executor.Change{}
}

// mounted reports whether dir is a mount point now, from the kernel's own table.
func mounted(t *testing.T, dir string) bool {
	t.Helper()
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if fields := strings.Fields(s.Text()); len(fields) > 4 && fields[4] == dir {
			return true
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return false
}

// run runs a command the test needs, failing the test with its output.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// dataVolume makes a real file system holding data: a 4 MiB image file on a loop device,
// formatted ext2 and mounted on dir/vol, with a file in it. It returns the device and the
// mount point; both are unmounted and detached when the test ends. Without the privileges to
// mount (not root, no loop devices: a container without them) the test is skipped, since
// nothing short of a real mount tests what the minion sees.
func dataVolume(t *testing.T, dir string) (dev, mnt string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a loop device needs root")
	}
	for _, tool := range []string{"losetup", "mkfs.ext2", "mkfs.ext4", "mount", "umount", "blkid"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	img := filepath.Join(t.TempDir(), "volume.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 4<<20); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "--find", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("no loop device to attach (a sandbox without them): %v: %s", err, out)
	}
	dev = strings.TrimSpace(string(out))
	t.Cleanup(func() {
		if out, err := exec.Command("losetup", "--detach", dev).CombinedOutput(); err != nil {
			t.Errorf("detaching %s: %v: %s", dev, err, out)
		}
	})
	run(t, "mkfs.ext2", "-q", dev)
	mnt = filepath.Join(dir, "vol")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, "mount", dev, mnt)
	// Cleanups run last first: unmounted before detached, and before r.dir removes dir.
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("unmounting %s: %v: %s", mnt, err, out)
		}
	})
	if err := os.WriteFile(filepath.Join(mnt, "ledger.db"), []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dev, mnt
}

// unmountAndFormat unmounts the volume and formats its device ext4 (it is ext2).
const unmountAndFormat = `data-unmounted:
  mount.unmounted:
    - name: {{ pillar['vol'] }}
data-formatted:
  blockdev.formatted:
    - name: {{ pillar['dev'] }}
    - fs_type: ext4
`

// On the real minion, a plan that would unmount a mounted volume, or format its device, is
// data loss when the blueprint marks the mount point and the device as holding data; the
// same states on an unmarked volume still disrupt or replace it, without data loss. The plan
// runs in test mode: the volume stays mounted, ext2, with its file.
func TestRealPlanMarksUnmountingAndFormattingADataVolume(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dev, mnt := dataVolume(t, r.dir(t))
	pillar := map[string]any{"vol": mnt, "dev": dev}
	ctx := context.Background()
	unmount := r.minion + ": mount.unmounted data-unmounted (" + mnt + ")"
	format := r.minion + ": blockdev.formatted data-formatted (" + dev + ")"

	marked, err := l.Plan(ctx, stateSpec("ledger", unmountAndFormat, pillar, []string{mnt, dev}))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if c := changeAt(t, marked, unmount); c.Action != executor.Update || c.Forces != "mount "+mnt+" would be unmounted" || !c.DataLoss {
		t.Errorf("unmounting the data volume: %s forced by %q, data loss %v; want an update forced by the unmount, data loss", c.Action, c.Forces, c.DataLoss)
	}
	if c := changeAt(t, marked, format); c.Action != executor.Replace || c.Forces != "blockdev "+dev+" would be formatted" || !c.DataLoss {
		t.Errorf("formatting the data volume: %s forced by %q, data loss %v; want a replace forced by the format, data loss", c.Action, c.Forces, c.DataLoss)
	}
	if !(executor.Plan{Layers: []executor.LayerPlan{marked}}).LosesData() {
		t.Error("the plan does not say it loses data")
	}

	unmarked, err := l.Plan(ctx, stateSpec("ledger", unmountAndFormat, pillar, nil))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if c := changeAt(t, unmarked, unmount); c.DataLoss || !c.Disrupts() {
		t.Errorf("unmounting an unmarked volume: %s forced by %q, data loss %v; want a disruption without data loss", c.Action, c.Forces, c.DataLoss)
	}
	if c := changeAt(t, unmarked, format); c.DataLoss || c.Action != executor.Replace {
		t.Errorf("formatting an unmarked volume: %s, data loss %v; want a replace without data loss", c.Action, c.DataLoss)
	}

	if !mounted(t, mnt) {
		t.Errorf("the plan unmounted %s", mnt)
	}
	if fs := run(t, "blkid", "-o", "value", "-s", "TYPE", dev); fs != "ext2" {
		t.Errorf("the plan changed %s's file system to %q", dev, fs)
	}
	if b, err := os.ReadFile(filepath.Join(mnt, "ledger.db")); err != nil || string(b) != "precious\n" {
		t.Errorf("the volume's file after the plan: %q, %v", b, err)
	}
}

// removeData removes a data directory, a file in it, and a scratch directory that holds no
// data, and writes a new file into the data directory.
const removeData = `data-gone:
  file.absent:
    - name: {{ pillar['data'] }}
ledger-gone:
  file.absent:
    - name: {{ pillar['data'] }}/ledger.db
new-conf:
  file.managed:
    - name: {{ pillar['data'] }}/app.conf
    - contents: port=8080
scratch-gone:
  file.absent:
    - name: {{ pillar['scratch'] }}
`

// On the real minion, a file.absent of a directory the blueprint says holds data, or of a
// file in it, is data loss; a file written into it changes it without losing any, and
// removing a directory that holds none is no data loss. The plan runs in test mode: every
// file is still there.
func TestRealPlanMarksRemovingADataDirectory(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	data, scratch := filepath.Join(dir, "data"), filepath.Join(dir, "scratch")
	files := map[string]string{
		filepath.Join(data, "ledger.db"):        "precious\n",
		filepath.Join(data, "wal", "0001.log"):  "also precious\n",
		filepath.Join(scratch, "cache.tmp"):     "disposable\n",
		filepath.Join(scratch, "more", "x.tmp"): "disposable\n",
	}
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	p, err := l.Plan(context.Background(), stateSpec("ledger", removeData, map[string]any{"data": data, "scratch": scratch}, []string{data}))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	at := func(id, name string) executor.Change { return changeAt(t, p, r.minion+": "+id+" ("+name+")") }

	if c := at("file.absent data-gone", data); c.Action != executor.Delete || !c.DataLoss ||
		c.Forces != "file "+data+" under data path "+data+" would be removed" {
		t.Errorf("removing the data directory: %s forced by %q, data loss %v; want a delete with data loss", c.Action, c.Forces, c.DataLoss)
	}
	ledger := filepath.Join(data, "ledger.db")
	if c := at("file.absent ledger-gone", ledger); c.Action != executor.Delete || !c.DataLoss {
		t.Errorf("removing a file in the data directory: %s, data loss %v; want a delete with data loss", c.Action, c.DataLoss)
	}
	conf := filepath.Join(data, "app.conf")
	if c := at("file.managed new-conf", conf); c.Action != executor.Update || c.DataLoss ||
		c.Forces != "file "+conf+" under data path "+data+" would change" {
		t.Errorf("writing a file into the data directory: %s forced by %q, data loss %v; want an update without data loss", c.Action, c.Forces, c.DataLoss)
	}
	if c := at("file.absent scratch-gone", scratch); c.DataLoss || c.Action != executor.Delete {
		t.Errorf("removing a directory that holds no data: %s forced by %q, data loss %v; want a delete (a removal, told apart from a change) without data loss", c.Action, c.Forces, c.DataLoss)
	}

	for path, text := range files {
		if b, err := os.ReadFile(path); err != nil || string(b) != text {
			t.Errorf("%s after the plan: %q, %v; want %q", path, b, err, text)
		}
	}
	if _, err := os.Stat(conf); !os.IsNotExist(err) {
		t.Errorf("the plan wrote %s (stat: %v)", conf, err)
	}
}
