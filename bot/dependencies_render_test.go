package bot

import (
	"testing"

	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// TestPreviewDependencyLinesGolden fixes what the preview says about each kind of dependency:
// brought in, deployed and changed, deployed with new values but nothing to apply, deployed
// and left alone; and, for a destroy, the dependents removed first.
func TestPreviewDependencyLinesGolden(t *testing.T) {
	p := samplePlan()
	p.Plan.Spec = executor.Spec{Verb: "create", Target: "portal", Env: "production", Asked: []string{"--sso", "--dashboards", "--ci", "--files"},
		Units: []executor.Unit{
			{Service: "authentik", Reason: "because of --sso"},
			{Service: "grafana", Reason: "because of --dashboards"},
			{Service: "jenkins", Reason: "because of --ci"},
			{Service: "portal"},
		},
		Deployed: []executor.Dependency{
			{Service: "authentik", Reason: "because of --sso", Changes: []string{"--frontend-for unset → portal"}},
			{Service: "jenkins", Reason: "because of --ci", Changes: []string{"--trusted false → true"}},
			{Service: "nextcloud", Reason: "because of --files"},
		}}
	p.Plan.Layers = []executor.LayerPlan{
		{Layer: executor.Salt, Status: executor.PlanNotConfigured},
		{Layer: executor.Terraform, Status: executor.PlanChanges, Summary: "+3 ~1 −0: authentik eoslab_server.main, …",
			Changes: []executor.Change{
				{Unit: "authentik", Action: executor.Update, Address: "eoslab_server.main", Detail: "labels"},
				{Unit: "grafana", Action: executor.Create, Address: "eoslab_server.main"},
				{Unit: "portal", Action: executor.Create, Address: "eoslab_server.main"},
				{Unit: "portal", Action: executor.Create, Address: "eoslab_dns_record.main"},
			}},
		{Layer: executor.Nomad, Status: executor.PlanNothing},
	}
	ep := EnvPolicy{Approvals: 1}
	golden(t, "preview_dependencies", previewDoc(p, judgedByRule(p, ep), ""))

	p.Plan.Spec = executor.Spec{Verb: "destroy", Target: "authentik", Env: "production", Asked: []string{"--with-dependents"}, Units: []executor.Unit{
		{Service: "portal", Destroy: true, Reason: "it requires nextcloud for --files"},
		{Service: "nextcloud", Destroy: true, Reason: "it requires authentik for --sso"},
		{Service: "authentik", Destroy: true},
	}}
	p.Plan.Layers = []executor.LayerPlan{ // a destroy's run order (executor.RunOrder)
		{Layer: executor.Nomad, Status: executor.PlanNothing},
		{Layer: executor.Terraform, Status: executor.PlanChanges, Summary: "+0 ~0 −3: portal eoslab_server.main, …",
			Changes: []executor.Change{
				{Unit: "portal", Action: executor.Delete, Address: "eoslab_server.main"},
				{Unit: "nextcloud", Action: executor.Delete, Address: "eoslab_server.main"},
				{Unit: "authentik", Action: executor.Delete, Address: "eoslab_server.main"},
			}},
		{Layer: executor.Salt, Status: executor.PlanNoChanges, Summary: "kept",
			Kept: "kept on eos-minion: /srv/authentik/.eos-volume, /srv/nextcloud/.eos-volume, /srv/nextcloud/nextcloud.conf, … — Salt does not undo host configuration; remove them by hand when no longer needed"},
	}
	p.State = store.PlanPending
	golden(t, "preview_destroy_dependents", previewDoc(p, judgedByRule(p, ep), ""))
	tr := progressLayers(p.Plan)
	tr[1].Icon, tr[1].Done, tr[1].Total, tr[1].Current = iconRunning, 1, 3, "portal eoslab_server.main"
	golden(t, "progress_destroy", render.ProgressDoc(p.ID, []string{"bob"}, tr))
}
