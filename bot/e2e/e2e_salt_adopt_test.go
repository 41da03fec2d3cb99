package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// An adopt of mixed drift on the real minion and eoslab adopts what it can and leaves Salt as
// it is: the volume grown by hand is declared (--storage 200G → 300G), the line added by hand
// to nextcloud's configuration file is named as left as is with how to keep it, and after the
// run the file still has the line; the next drift has only Salt's. (The state of the volume's
// marker differs too: the adopted --storage is in its pillar, which only a reconcile applies.)
func TestAdoptLeavesAHandEditedFileOnARealMinion(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root := filepath.Join(data, "srv", "nextcloud-local")
	os.RemoveAll(root)
	t.Cleanup(func() { os.RemoveAll(root) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}})
	eostest.Deploy(t, h, "nextcloud --storage 200G")

	conf := filepath.Join(root, "nextcloud.conf")
	b, err := os.ReadFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	edited := string(b) + "\nmax_upload=10G\n" // a line added by hand
	if err := os.WriteFile(conf, []byte(edited), 0o640); err != nil {
		t.Fatal(err)
	}
	eostest.GrowVolume(t, h, "data-nextcloud-local", 300)

	p, id := eostest.Preview(t, h, "alice", "@eos adopt nextcloud")
	for _, want := range []string{"Declared values: --storage 200G → 300G", "Terraform | the state takes in +0 ~1 −0: eoslab_volume.data",
		"Salt      | left as is, not adopted: ", minion + ": file.managed nextcloud-config (" + conf + ")", "change the blueprint or its pillar"} { // the path under eos_data_dir shows whole (executor/salt/datadir.go)
		if !strings.Contains(p.Text, want) {
			t.Errorf("adopt preview lacks %q:\n%s", want, p.Text)
		}
	}
	h.React("bob", p.ID, "+1")
	done := h.WaitText(p.ID, "Run "+id+" · done in")
	if !strings.Contains(done.Text, "Salt ⏭") {
		t.Errorf("the adopt's run did not skip Salt:\n%s", done.Text)
	}
	if b, err := os.ReadFile(conf); err != nil || string(b) != edited {
		t.Errorf("the adopt changed the file edited by hand: %q, %v; want %q", b, err, edited)
	}

	after := h.Last()
	h.Say("alice", "@eos drift nextcloud")
	got := h.WaitText(after, "1 of 1 services drifted")
	if strings.Contains(got.Text, "Terraform") || !strings.Contains(got.Text, "file.managed nextcloud-config") || strings.Contains(got.Text, "📥") {
		t.Errorf("after the adopt, drift should be Salt's only, offered no 📥:\n%s", got.Text)
	}
}
