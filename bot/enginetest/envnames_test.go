package enginetest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// grafana deployed in local, then asked for in a second declared environment, gets a plan of
// its own that applies cleanly: both exist side by side in the simulated cloud, each under
// names of its environment.
// Before, the staging plan showed +3 and its apply failed: "eoslab firewall "proxy-grafana"
// already exists … Remove the file or import the object".
func TestASecondEnvironmentDeploysBesideTheFirst(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"staging"}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	p, id = eostest.Preview(t, h, "alice", "@eos create grafana in staging")
	if !strings.Contains(p.Text, "Terraform | +3 ~0 −0") || strings.Contains(p.Text, "⛔") {
		t.Errorf("the staging preview:\n%s", p.Text)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in", "Terraform ✅ +3")
	for _, f := range []string{
		"server/proxy-grafana-local.json", "firewall/proxy-grafana-local.json", "dns_record/grafana.local.test_A.json",
		"server/proxy-grafana-staging.json", "firewall/proxy-grafana-staging.json", "dns_record/grafana.staging.test_A.json",
	} {
		if _, err := os.Stat(filepath.Join(h.Cloud(), f)); err != nil {
			t.Errorf("the simulated cloud lacks %s: %v", f, err)
		}
	}
}

// A plan that would create an object another unit already owns is refused before anyone can
// approve it, naming the object and its owner; a ✅ on it starts nothing. The blueprint here
// forgets the environment in its names (eos catalog check would refuse it).
// Before, the plan offered approval and its apply failed half way.
func TestAPlanThatWouldTakeAnotherUnitsObjectIsRefusedNamingTheOwner(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"staging"}, CatalogDirs: []string{"testdata/envclash"}})
	p, id := eostest.Preview(t, h, "alice", "@eos create clash")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	after := h.Last()
	h.Say("alice", "@eos create clash in staging")
	blocked := h.WaitText(after, "create clash in staging", "⛔ This plan would fail, so it cannot be approved:",
		"Terraform: firewall proxy-clash already exists (clash in local)", "Terraform: server proxy-clash already exists (clash in local)")
	if strings.Contains(blocked.Text, "React ✅") {
		t.Errorf("the preview offers approval:\n%s", blocked.Text)
	}
	id = eostest.PlanIDRe.FindStringSubmatch(blocked.Text)[1]
	if pl, err := h.Store.Plan(context.Background(), id); err != nil || pl.State != store.PlanBlocked {
		t.Fatalf("plan %s stored as %+v (%v), want blocked", id, pl, err)
	}
	h.React("bob", blocked.ID, "+1")
	h.WaitText(blocked.ID, "Plan "+id+" cannot be approved: it would fail.")
	h.Idle()
	if runs, err := h.Store.Runs(context.Background(), nil); err != nil || len(runs) != 1 {
		t.Errorf("runs = %d (%v), want only local's", len(runs), err)
	}
	if _, err := os.Stat(filepath.Join(h.DataDir, "terraform", "staging", "clash", "terraform.tfstate")); err == nil {
		t.Error("staging's clash has a state: something was applied")
	}
}
