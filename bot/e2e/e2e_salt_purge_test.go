package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// On the real master, a destroy's preview says --purge-data removes what grafana's local state
// created; destroy --purge-data lists the service's directory as a Salt destroy that loses
// data, first among the risks, and its run removes the directory, with what the service wrote
// there, and nothing beside it.
func TestSaltDestroyPurgeDataRemovesTheServicesDirectory(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root := filepath.Join(data, "srv", "grafana-local")
	os.RemoveAll(root)
	t.Cleanup(func() { os.RemoveAll(root) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}})

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done")
	written := filepath.Join(root, "grafana.db") // what the service wrote, next to its files
	if err := os.WriteFile(written, []byte("dashboards"), 0o644); err != nil {
		t.Fatal(err)
	}

	kept, _ := eostest.Preview(t, h, "alice", "@eos destroy grafana")
	if want := "/grafana.ini — Salt does not undo host configuration; add --purge-data to remove them"; !strings.Contains(kept.Text, want) {
		t.Errorf("the destroy preview does not say --purge-data removes what Salt keeps (%q):\n%s", want, kept.Text)
	}
	after := h.Last()
	h.Say("alice", "@eos cancel")
	h.WaitText(after, "cancelled by @alice. Nothing changed.")

	dp, did := eostest.Preview(t, h, "alice", "@eos destroy grafana --purge-data")
	for _, want := range []string{
		"destroy grafana --purge-data in local",
		"Salt      | +0 ~0 −1 on " + minion + ": grafana-local",
		"⚠ data loss: grafana " + minion + ": file.absent " + root + " — destroyed",
	} {
		if !strings.Contains(dp.Text, want) {
			t.Errorf("the destroy --purge-data preview lacks %q:\n%s", want, dp.Text)
		}
	}
	if _, err := os.Stat(written); err != nil {
		t.Fatalf("the preview removed something: %v", err)
	}
	h.React("bob", dp.ID, "+1")
	h.WaitText(dp.ID, "Run "+did+" · done")
	h.Idle()
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Errorf("%s is still there after destroy --purge-data (%v)", root, err)
	}
	if _, err := os.Stat(filepath.Join(data, "srv")); err != nil {
		t.Errorf("destroy --purge-data removed more than grafana's directory: %v", err)
	}
}
