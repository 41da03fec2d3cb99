package render

import (
	"github.com/eosbot/eos/bot/policy"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// riskyPlan replaces nextcloud's server (a new image) and its data volume (a new format), and
// updates its DNS record in place.
func riskyPlan() *store.Plan {
	p := samplePlan()
	p.Plan.Spec = executor.Spec{Verb: "update", Target: "nextcloud", Env: "production", Units: []executor.Unit{{Service: "nextcloud"}}}
	p.Plan.Layers = []executor.LayerPlan{
		{Layer: executor.Salt, Status: executor.PlanNotConfigured},
		{Layer: executor.Terraform, Status: executor.PlanChanges, Summary: "+0 ~1 −0 ±2 (2 replaced): eoslab_volume.data, eoslab_server.main, eoslab_dns_record.main",
			Changes: []executor.Change{
				{Unit: "nextcloud", Action: executor.Update, Address: "eoslab_dns_record.main", Detail: `ttl 300 → 60`},
				{Unit: "nextcloud", Action: executor.Replace, Address: "eoslab_server.main",
					Detail: `cpus 2 → 4, image "debian-12" → "debian-13", memory "4G" → "8G", and 2 more`,
					Attrs:  "cpus 2 → 4\nimage \"debian-12\" → \"debian-13\"\nmemory \"4G\" → \"8G\"\nroot_password (sensitive) → (sensitive)\nsize \"small\" → \"large\"",
					Forces: "image", Reason: "cannot update in place"},
				{Unit: "nextcloud", Action: executor.Replace, Address: "eoslab_volume.data", Detail: `format "xfs" → "ext4"`,
					Forces: "format", Reason: "cannot update in place", DataLoss: true, Size: "200G"},
			}},
		{Layer: executor.Nomad, Status: executor.PlanChanges, Summary: "job nextcloud--production: destructive update of group app ×1",
			Changes: []executor.Change{{Unit: "nextcloud", Action: executor.Replace, Address: "nextcloud--production/app",
				Detail: "destructive update ×1: task app (Config)", Forces: "task app Config.image"}}},
	}
	return p
}

func TestRiskPreviewGolden(t *testing.T) {
	p := riskyPlan()
	policy := policy.Policy{Envs: map[string]policy.EnvPolicy{"production": {Approvers: []string{"bob"}, Approvals: 1,
		Risks: map[string]policy.RiskPolicy{policy.RiskDataLoss: {Approvals: 2}}}}}
	golden(t, "preview_risk", Preview(p, judgedBy(p, policy), ""))
	golden(t, "plan_full_risk", FullPlan(p))
}

// The risk lines are bounded: a plan destroying many things names the first few, data loss
// first, and says how many more there are and where to read them.
func TestRiskLinesAreBounded(t *testing.T) {
	var changes []executor.Change
	for _, a := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		changes = append(changes, executor.Change{Unit: "web", Action: executor.Delete, Address: "eoslab_server." + a})
	}
	changes = append(changes, executor.Change{Unit: "web", Action: executor.Create, Address: "eoslab_server.new"},
		executor.Change{Unit: "web", Action: executor.Delete, Address: "eoslab_volume.data", DataLoss: true})
	blocks := riskBlocks(executor.Plan{Layers: []executor.LayerPlan{{Layer: executor.Terraform, Changes: changes}}}, "7f3a9c21")
	if len(blocks) != 1 {
		t.Fatalf("blocks = %v, want one", blocks)
	}
	got := strings.Split(blocks[0].(adapters.Text).Text, "\n")
	want := []string{
		"⚠ data loss: web eoslab_volume.data — destroyed",
		"− destroys web eoslab_server.a",
		"− destroys web eoslab_server.b",
		"− destroys web eoslab_server.c",
		"− destroys web eoslab_server.d",
		"… and 3 more that can hurt: @eos plan 7f3a9c21 full",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("risk lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if riskBlocks(executor.Plan{Layers: []executor.LayerPlan{{Changes: changes[7:8]}}}, "x") != nil {
		t.Error("a plan that only creates has risk lines")
	}
}
