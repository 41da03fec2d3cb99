package e2e_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// A Nomad-only data loss reads first, on a real agent: the ledger blueprint
// (testdata/nomadrisk) marks its db group as holding data, so a new schema, which replaces
// the group's allocation, and a destroy, which stops it, warn on the line after the heading
// and fall under the environment's data-loss rule; the web group, replaced or stopped beside
// it, is no data loss.
func TestNomadDataLossLeadsThePreview(t *testing.T) {
	t.Parallel()
	addr := eostest.NomadAgent(t)
	layer, err := nomad.New(nomad.Config{Address: addr, DeployTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("e2e%06x", rand.N(1<<24))
	job := nomad.JobID("ledger", env)
	t.Cleanup(func() { _, _, _ = client.Jobs().Deregister(job, true, nil) })
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1}, Envs: map[string]bot.EnvPolicy{env: {
		Approvals: 1, SelfApproval: true,
		Risks: map[string]bot.RiskPolicy{bot.RiskDataLoss: {Approvals: 2}},
	}}}
	h := eostest.New(t, eostest.Options{Policy: policy, Layers: []executor.Layer{layer},
		CatalogDirs: []string{filepath.Join("testdata", "nomadrisk")}})
	in := " in " + env
	rule := `the "data-loss" rule of ` + env

	p, id := eostest.Preview(t, h, "alice", "@eos create ledger"+in)
	if strings.Contains(p.Text, "data loss") || strings.Contains(p.Text, rule) {
		t.Errorf("a create loses no data:\n%s", p.Text)
	}
	h.React("alice", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in", "Nomad ✅ "+job+" 2/2 healthy")

	up, _ := eostest.Preview(t, h, "alice", "@eos update ledger --schema 2"+in)
	ls := eostest.Lines(up)
	want := "⚠ data loss: ledger " + job + "/db — replaced, forced by task store Config.args[2]"
	if len(ls) < 2 || ls[1] != want {
		t.Errorf("the line after the heading should be\n%s\nin:\n%s", want, up.Text)
	}
	for _, w := range []string{"Nomad     | job " + job + ": destructive update of group db ×1", "Needs 2 approvals", rule} {
		if !strings.Contains(up.Text, w) {
			t.Errorf("the update's preview lacks %q:\n%s", w, up.Text)
		}
	}
	if strings.Contains(up.Text, job+"/web") {
		t.Errorf("the web group, moved to the new version in place, is named among the risks:\n%s", up.Text)
	}
	after := h.Last()
	h.Say("alice", "@eos cancel")
	h.WaitText(after, "cancelled by @alice. Nothing changed.")

	dp, _ := eostest.Preview(t, h, "alice", "@eos destroy ledger"+in)
	ls = eostest.Lines(dp)
	if len(ls) < 3 || ls[1] != "⚠ data loss: ledger "+job+"/db — destroyed" || ls[2] != "− destroys ledger "+job+"/web" {
		t.Errorf("the lines after the heading should warn of the db group's data loss, then name the web group destroyed:\n%s", dp.Text)
	}
	if !strings.Contains(dp.Text, rule) {
		t.Errorf("the destroy's preview does not say the data-loss rule applies:\n%s", dp.Text)
	}

	// Previews plan only: the first version still runs.
	j, _, err := client.Jobs().Info(job, nil)
	if err != nil {
		t.Fatalf("reading job %s: %v", job, err)
	}
	if *j.Version != 0 || *j.Stop {
		t.Errorf("after the previews: version %d, stopped %v; want version 0 running", *j.Version, *j.Stop)
	}
}
