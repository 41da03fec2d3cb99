package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// resize lvm on a real master: a name that would take the local state's file out of the
// minion's lvm directory is refused before Salt sees it, and a name within the pattern writes
// only data/lvm/VG/NAME, with the preview's first line naming the volume, the size and the
// minion; asked again, it is answered as changing nothing, with no plan.
func TestSaltResizeLvmStaysInItsDirectory(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	lvm := filepath.Join(data, "lvm")
	os.RemoveAll(lvm)
	t.Cleanup(func() { os.RemoveAll(lvm) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}})

	escape := filepath.Join(data, "eos-escaped")
	after := h.Last()
	h.Say("alice", "@eos resize lvm ../../eos-escaped +1G on "+minion)
	h.WaitText(after, `NAME "../../eos-escaped" does not match the pattern`)

	p, id := eostest.Preview(t, h, "alice", "@eos resize lvm data-nextcloud +50G on "+minion)
	if want := "resize lvm data-nextcloud +50G on " + minion + " in local · asked by @alice"; !strings.Contains(p.Text, want) {
		t.Errorf("preview lacks %q:\n%s", want, p.Text)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done")
	got, err := os.ReadFile(filepath.Join(lvm, "vg0", "data-nextcloud"))
	if err != nil || strings.TrimSpace(string(got)) != "size +50G" {
		t.Errorf("the local state wrote %q (%v), want size +50G under lvm/vg0/data-nextcloud", got, err)
	}
	if _, err := os.Stat(escape); !os.IsNotExist(err) {
		t.Errorf("%s exists (stat: %v): a refused name reached the minion", escape, err)
	}

	// The same resize again: Salt's test run on the master finds the volume as asked, so
	// nobody is asked to approve a plan of nothing.
	after = h.Last()
	h.Say("alice", "@eos resize lvm data-nextcloud +50G on "+minion)
	h.WaitText(after, "resize lvm would change nothing: Salt finds everything already as asked, so nothing is planned.")
	h.Idle()
	if plans, _ := h.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); len(plans) != 1 {
		t.Errorf("plans = %d, want only the first resize within the pattern", len(plans))
	}
}
