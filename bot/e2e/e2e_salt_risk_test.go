package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// A Salt state whose watch would restart a service is read first on the real master: the line
// after the preview's heading names the service, why it would restart and which file triggers
// it (the watch names the file's state by ID, the line by its path); when the file already holds what is declared, no such line.
func TestSaltRestartIsAmongThePreviewsFirstLines(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root := filepath.Join(data, "srv", "webcfg")
	conf := filepath.Join(root, "webcfg.conf")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.WriteFile(conf, []byte("port=8080\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, CatalogDirs: []string{"../testdata/saltrisk"}})

	calm, _ := eostest.Preview(t, h, "alice", "@eos create webcfg")
	if strings.Contains(calm.Text, "↻") || strings.Contains(calm.Text, "would restart") {
		t.Errorf("the configuration is unchanged, yet the preview warns of a restart:\n%s", calm.Text)
	}
	h.Say("alice", "@eos cancel")

	p, id := eostest.Preview(t, h, "alice", "@eos create webcfg --port 9090")
	// conf's directory is the minion's eos_data_dir, which the minion says: shown whole
	// (executor/salt/datadir.go).
	shown := conf
	want := "↻ disrupts webcfg " + minion + ": service.running webcfg-service (eos-demo-webcfg) — service eos-demo-webcfg would restart (watch: file " + shown + ")"
	if ls := eostest.Lines(p); len(ls) < 2 || ls[1] != want {
		t.Errorf("the line after the heading should be\n%s\n in:\n%s", want, p.Text)
	}
	after := h.Last()
	h.Say("alice", "@eos plan "+id+" full")
	full := h.WaitText(after, "Plan "+id)
	if !strings.Contains(full.Text, "service eos-demo-webcfg would restart (watch: file "+shown+")") {
		t.Errorf("the full plan does not say the service would restart:\n%s", full.Text)
	}
	if b, _ := os.ReadFile(conf); string(b) != "port=8080\n" {
		t.Errorf("planning changed %s: %q", conf, b)
	}
}

// A Salt-only data loss reads first, on a real master: the archive blueprint
// (testdata/saltdataloss) marks ${flag.root}/data as holding data, so --purge, whose state
// removes that directory, warns on the line after the heading with the minion and the state,
// and falls under the data-loss rule; without --purge the same directory only exists, and no
// warning is shown. The preview plans in test mode: the archive's files are still there.
func TestSaltDataLossLeadsThePreview(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	root, err := os.MkdirTemp(data, "archive-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	dir := filepath.Join(root, "data")
	file := filepath.Join(dir, "2026.tar")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("archived\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := eostest.New(t, eostest.Options{Policy: eostest.RiskPolicy(), Layers: []executor.Layer{layer}, CatalogDirs: []string{"testdata/saltdataloss"}})

	calm, _ := eostest.Preview(t, h, "alice", "@eos create archive --root "+root)
	if strings.Contains(calm.Text, "data loss") || strings.Contains(calm.Text, `"data-loss" rule`) {
		t.Errorf("keeping the data directory loses nothing:\n%s", calm.Text)
	}
	after := h.Last()
	h.Say("alice", "@eos cancel")
	h.WaitText(after, "cancelled by @alice. Nothing changed.")

	p, _ := eostest.Preview(t, h, "alice", "@eos create archive --purge --root "+root)
	want := "⚠ data loss: archive " + minion + ": file.absent archive-data (" + dir + ") — destroyed"
	if ls := eostest.Lines(p); len(ls) < 2 || ls[1] != want {
		t.Errorf("the line after the heading should be\n%s\nin:\n%s", want, p.Text)
	}
	if !strings.Contains(p.Text, `the "data-loss" rule of local`) {
		t.Errorf("the preview does not say the data-loss rule applies:\n%s", p.Text)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "archived\n" {
		t.Errorf("%s after the preview: %q, %v", file, b, err)
	}
}
