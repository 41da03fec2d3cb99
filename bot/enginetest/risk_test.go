package enginetest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A replacement is read first: the line after the heading names the resource and the attribute
// that forces it (real Terraform's replace_paths), the counts keep it apart (±1), and the full
// plan says the same.
func TestPreviewShowsReplacementFirst(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	// The domain moves to another zone: eoslab cannot move a DNS record, so it replaces it.
	up, uid := eostest.Preview(t, h, "alice", "@eos update grafana --domain grafana.example.org")
	ls := eostest.Lines(up)
	if len(ls) < 3 || ls[1] != "± replaces grafana eoslab_dns_record.main — forced by zone" {
		t.Errorf("the line after the heading should name the replacement and what forces it:\n%s", up.Text)
	}
	if !strings.Contains(up.Text, "Terraform | +0 ~0 −0 ±1 (1 replaced): eoslab_dns_record.main") {
		t.Errorf("the Terraform row does not count the replacement apart:\n%s", up.Text)
	}
	if strings.Contains(up.Text, "data loss") {
		t.Errorf("a DNS record holds no data, yet the preview warns of data loss:\n%s", up.Text)
	}
	after := h.Last()
	h.Say("alice", "@eos plan "+uid+" full")
	full := h.WaitText(after, "Plan "+uid)
	if !strings.Contains(full.Text, "replace") || !strings.Contains(full.Text, "forced by zone") {
		t.Errorf("the full plan does not say what forces the replacement:\n%s", full.Text)
	}
}

// Destroying a service whose blueprint marks its volume as holding data warns first, with the
// volume's size, and is judged by the data-loss rule: one approval is not enough, the second
// starts the run. policy and why show the rule.
func TestDataLossNeedsTheStricterRule(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: eostest.RiskPolicy()})
	p, id := eostest.Preview(t, h, "alice", "@eos create nextcloud --storage 200G")
	if !strings.Contains(p.Text, "Needs 1 approval from anyone · expires") || strings.Contains(p.Text, "data loss") {
		t.Errorf("a create loses no data and needs the environment's one approval:\n%s", p.Text)
	}
	h.React("alice", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	dp, did := eostest.Preview(t, h, "alice", "@eos destroy nextcloud")
	ls := eostest.Lines(dp)
	if len(ls) < 2 || ls[1] != "⚠ data loss: nextcloud eoslab_volume.data (200G) — destroyed" {
		t.Errorf("the line after the heading should warn of the data loss:\n%s", dp.Text)
	}
	if !strings.Contains(dp.Text, `Needs 2 approvals from anyone — not @alice (asked) · the "data-loss" rule of local, since this plan loses data`) {
		t.Errorf("the preview does not say the data-loss rule applies, and why:\n%s", dp.Text)
	}

	volume := filepath.Join(h.Cloud(), "volume", "data-nextcloud-local.json")
	h.React("alice", dp.ID, "+1") // the requester's own approval does not count under this rule
	h.WaitText(dp.ID, "@alice can't approve local plans")
	h.React("bob", dp.ID, "+1")
	h.WaitPost(dp.ID-1, func(p console.Post) bool { return strings.Contains(p.Text, "1 of 2") })
	h.Idle()
	for _, post := range h.Console.Posts() {
		if post.ID == dp.ID && (!strings.Contains(post.Text, "1 of 2: @bob ✅") || !strings.Contains(post.Text, `· the "data-loss" rule of local`)) {
			t.Errorf("the preview, edited after the first approval, should keep the data-loss rule and show 1 of 2:\n%s", post.Text)
		}
	}
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 1 {
		t.Fatalf("runs = %d after one approval of a data-loss plan, want only the create's", len(runs))
	}
	if _, err := os.Stat(volume); err != nil {
		t.Fatalf("the volume is gone after one approval: %v", err)
	}

	after := h.Last()
	h.Say("carol", "@eos why "+did)
	why := h.WaitText(after, "Plan "+did, "Rule:")
	for _, want := range []string{`Rule: Needs 2 approvals from anyone — not @alice (asked) · the "data-loss" rule of local, since this plan loses data.`,
		"(1 of 2)", "Still needed: 1 more approval"} {
		if !strings.Contains(why.Text, want) {
			t.Errorf("why lacks %q:\n%s", want, why.Text)
		}
	}
	after = h.Last()
	h.Say("carol", "@eos policy local")
	pol := h.WaitText(after, "Approval policy")
	if !strings.Contains(pol.Text, "local | risk data-loss | also, beside the verb's rule: 2 approvals from anyone · self-approval off") {
		t.Errorf("policy does not show the data-loss rule:\n%s", pol.Text)
	}

	h.React("carol", dp.ID, "+1")
	h.WaitText(dp.ID, "Run "+did+" · done in")
	if _, err := os.Stat(volume); !os.IsNotExist(err) {
		t.Errorf("the volume exists after the approved destroy (stat: %v)", err)
	}
	if r, err := h.Store.Run(context.Background(), did); err != nil || r.State != store.RunDone {
		t.Errorf("run = %+v, %v", r, err)
	}
}

// A replacement of a volume that holds data is a data loss too, named with what forces it.
func TestReplacingAVolumeIsDataLoss(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Policy: eostest.RiskPolicy(), CatalogDirs: []string{filepath.Join("testdata", "risk")}})
	p, id := eostest.Preview(t, h, "alice", "@eos create datastore")
	h.React("alice", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	up, _ := eostest.Preview(t, h, "alice", "@eos update datastore --format ext4")
	ls := eostest.Lines(up)
	if len(ls) < 2 || ls[1] != "⚠ data loss: datastore eoslab_volume.data (200G) — replaced, forced by format" {
		t.Errorf("the line after the heading should warn of the data loss and name what forces it:\n%s", up.Text)
	}
	for _, want := range []string{"Terraform | +0 ~0 −0 ±1 (1 replaced): eoslab_volume.data", `Needs 2 approvals`, `"data-loss" rule of local`} {
		if !strings.Contains(up.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, up.Text)
		}
	}
}
