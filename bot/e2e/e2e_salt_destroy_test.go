package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// A destroy on the real master runs Terraform before Salt and names, in the preview, the files
// the service's Salt states leave on the minion, which stay after the run. Before, the Salt
// row said "no changes", the layers ran Salt first, and nothing said the files stayed.
func TestSaltDestroyRunsLastAndNamesWhatItKeeps(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root := filepath.Join(data, "srv", "grafana-local")
	os.RemoveAll(root)
	t.Cleanup(func() { os.RemoveAll(root) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}})

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done")

	dp, did := eostest.Preview(t, h, "alice", "@eos destroy grafana")
	kept := "Salt      | kept on " + minion + ": " + root + "/.eos-volume, " + root + "/grafana.ini — Salt does not undo host configuration"
	if !strings.Contains(dp.Text, kept) {
		t.Errorf("the destroy preview does not name what Salt keeps (%q):\n%s", kept, dp.Text)
	}
	if n, tf, s := strings.Index(dp.Text, "Nomad "), strings.Index(dp.Text, "Terraform |"), strings.Index(dp.Text, "Salt      |"); !(n < tf && tf < s) {
		t.Errorf("the destroy preview's layers are not in the destroy's order Nomad, Terraform, Salt:\n%s", dp.Text)
	}
	h.React("bob", dp.ID, "+1")
	done := h.WaitText(dp.ID, "Run "+did+" · done")
	if tf, s := strings.Index(done.Text, "Terraform ✅"), strings.Index(done.Text, "Salt ⏭ kept"); tf < 0 || s < tf {
		t.Errorf("the destroy's run post does not show Terraform, then Salt kept:\n%s", done.Text)
	}
	h.Idle()
	for _, f := range []string{".eos-volume", "grafana.ini"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s, which the preview says is kept, is gone: %v", f, err)
		}
	}
}
