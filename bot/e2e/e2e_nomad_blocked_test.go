package e2e_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// The first-hour scenario of issue 26 on a real agent: a blueprint made with `eos catalog new`
// runs its job on the docker driver, which the test agent lacks. Its preview leads with ⛔ and
// the scheduler's reason and offers no approval; a ✅ is answered with the reason and neither
// registers the job nor starts a run. Before, the preview said "React ✅ to approve".
func TestUnplaceableScaffoldCannotBeApprovedOnNomad(t *testing.T) {
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
	dir := t.TempDir()
	if _, err := catalog.Scaffold(dir, "gitea"); err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("e2e%06x", rand.N(1<<24))
	job := nomad.JobID("gitea", env)
	t.Cleanup(func() { _, _, _ = client.Jobs().Deregister(job, true, nil) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, CatalogDirs: []string{dir}, Environments: []string{env}})

	reason := "Nomad: job " + job + ": cannot place group app (1 allocation): no node has the docker driver"
	h.Say("alice", "@eos create gitea in "+env)
	preview := h.WaitText(0, "create gitea in "+env, "⛔ This plan would fail, so it cannot be approved: "+reason)
	if strings.Contains(preview.Text, "React ✅") {
		t.Errorf("the preview of an unplaceable job offers approval:\n%s", preview.Text)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(preview.Text)[1]
	h.React("bob", preview.ID, "+1")
	h.WaitText(preview.ID, "Plan "+id+" cannot be approved: it would fail.\n"+reason)
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Errorf("a ✅ on an unplaceable plan started %d runs", len(runs))
	}
	if j, _, err := client.Jobs().Info(job, nil); err == nil && j != nil {
		t.Errorf("job %s was registered", job)
	}
}
