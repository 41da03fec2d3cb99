package render

import (
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render/rendertest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// The fixtures the texts' tests share (bot/render/rendertest).
var (
	golden     = rendertest.Golden
	at         = rendertest.At
	samplePlan = rendertest.SamplePlan
)

func TestPreviewGolden(t *testing.T) {
	p := samplePlan()
	ep := policy.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1}
	golden(t, "preview", Preview(p, judgedByRule(p, ep), VaultRow(p.Plan, false)))
	p.Plan.Secrets = &executor.SecretPlan{Create: []string{"secret/eos/production/nextcloud#admin_password"}, Reuse: []string{"secret/eos/production/authentik#secret_key"}}
	golden(t, "preview_vault", Preview(p, judgedByRule(p, ep), VaultRow(p.Plan, true)))
	p.Plan.Secrets = nil
	p.State = store.PlanPreview
	golden(t, "preview_only", Preview(p, judgedByRule(p, ep), ""))
	golden(t, "plan_full", FullPlan(p))

	// An update says the declared values it changes, old → new, first.
	up := samplePlan()
	up.Text = "@eos update grafana --port 3002"
	up.Plan.Spec = executor.Spec{Verb: "update", Target: "grafana", Env: "staging", Asked: []string{"--port 3002"},
		Changes: []string{"--port 3001 → 3002 (Nomad)"}, Units: []executor.Unit{{Service: "grafana"}}}
	up.Plan.Layers = []executor.LayerPlan{
		{Layer: executor.Salt, Status: executor.PlanNotConfigured},
		{Layer: executor.Terraform, Status: executor.PlanNoChanges},
		{Layer: executor.Nomad, Status: executor.PlanChanges, Summary: "~1: job grafana (destructive update of group grafana ×1)",
			Changes: []executor.Change{{Unit: "grafana", Action: executor.Update, Address: "job grafana", Detail: "task grafana Meta[port] 3001 → 3002"}}},
	}
	golden(t, "preview_update", Preview(up, judgedByRule(up, ep), ""))
	golden(t, "plan_full_update", FullPlan(up))

	// The same update where Nomad, which --port feeds, is not configured: nothing deploys the
	// new value, and the preview does not claim "everything already matches".
	up.Plan.Layers[2] = executor.LayerPlan{Layer: executor.Nomad, Status: executor.PlanNotConfigured}
	got := Preview(up, judgedByRule(up, ep), "").Plain()
	want := "Nothing changes in the layers configured here (Terraform), and Salt and Nomad are not configured, so nothing deploys the new values now. " +
		"Approving records them as the declared state; once they are configured, @eos reconcile grafana in staging applies them."
	if !strings.Contains(got, want) || strings.Contains(got, "everything already matches") {
		t.Errorf("an update whose values feed only layers that are not configured says:\n%s\nwant %q", got, want)
	}
	up.Plan.Spec.Changes = nil
	if got := Preview(up, judgedByRule(up, ep), "").Plain(); !strings.Contains(got, "Nothing to change: everything already matches.") {
		t.Errorf("a plan changing no value and nothing says:\n%s", got)
	}
}

// A plan a layer says would fail leads with ⛔ and one line per reason, and closes without
// approval lines: its status says what to do instead.
func TestBlockedPreviewGolden(t *testing.T) {
	p := samplePlan()
	p.State = store.PlanBlocked
	p.Plan.Layers[0] = executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanChanges,
		Summary:  "eos-minion: 1 state would change (file.managed /srv/gitea/app.ini), 1 would fail (lvm.lv_present data-gitea)",
		Failures: []string{"eos-minion: lvm.lv_present data-gitea: Volume group vg0 not found"}}
	p.Plan.Layers[2] = executor.LayerPlan{Layer: executor.Nomad, Status: executor.PlanChanges, Summary: "job gitea--production: new, group app ×1",
		Failures: []string{"job gitea--production: cannot place group app (1 allocation): no node has the docker driver"}}
	golden(t, "preview_blocked", Preview(p, judgedByRule(p, policy.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1}), ""))
	if full := FullPlan(p).Plain(); !strings.Contains(full, "⛔ This plan would fail, so it cannot be approved:\n• Salt: eos-minion: lvm.lv_present data-gitea") {
		t.Errorf("plan ID full does not lead with the failures:\n%s", full)
	}
	p.Plan.Layers[2].Failures = nil
	doc := Preview(p, judgedByRule(p, policy.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1}), "")
	if got := doc.Plain(); !strings.Contains(got, "⛔ This plan would fail, so it cannot be approved: Salt: eos-minion: lvm.lv_present data-gitea: Volume group vg0 not found\n") {
		t.Errorf("one reason is not said on the ⛔ line:\n%s", got)
	}
}

func TestProgressGolden(t *testing.T) {
	layers := []LayerState{
		{Name: executor.Salt, Icon: IconSkipped, Text: "not configured"},
		{Name: executor.Terraform, Icon: IconRunning, Done: 2, Total: 5, Current: "terraform_data.dns"},
		{Name: executor.Nomad, Icon: IconWaiting},
	}
	golden(t, "progress", ProgressDoc("7f3a9c21", []string{"bob"}, layers))
	layers[0] = LayerState{Name: executor.Salt, Icon: IconOK}
	layers[1] = LayerState{Name: executor.Terraform, Icon: IconRollingBack, Done: 1, Total: 3, Current: "terraform_data.server"}
	golden(t, "progress_rollback", ProgressDoc("7f3a9c21", []string{"bob"}, layers))
}

func TestResultGolden(t *testing.T) {
	run := &store.Run{ID: "7f3a9c21", Target: "nextcloud", Env: "production", State: store.RunFailed, Started: at, Finished: at.Add(41 * time.Second),
		Layers: []executor.LayerResult{
			{Layer: executor.Salt, Status: executor.ResultOK, Summary: "3/3"},
			{Layer: executor.Terraform, Status: executor.ResultFailed, Failed: &executor.Change{Address: "eoslab_volume.data"},
				Error: `size "huge" is unknown (small, medium, large)`, Rollback: "nothing created by Terraform remains"},
			{Layer: executor.Nomad, Status: executor.ResultNotStarted},
		}}
	golden(t, "result_failed", Result(run))
	run.State = store.RunDone
	run.Layers = []executor.LayerResult{
		{Layer: executor.Salt, Status: executor.ResultSkipped, Summary: "not configured"},
		{Layer: executor.Terraform, Status: executor.ResultOK, Summary: "+3"},
		{Layer: executor.Nomad, Status: executor.ResultSkipped, Summary: "nothing to do"},
	}
	golden(t, "result_done", Result(run))
}

func TestDriftGolden(t *testing.T) {
	results := []ServiceDrift{
		{Service: "grafana", Env: "staging", Status: executor.DriftClean},
		{Service: "jenkins", Env: "production", Status: executor.DriftUnknown, Layers: []executor.LayerDrift{{Layer: executor.Terraform, Status: executor.DriftUnknown, Reason: "state lock held"}}},
		{Service: "nextcloud", Env: "production", Status: executor.DriftDrifted, Layers: []executor.LayerDrift{{Layer: executor.Terraform, Status: executor.DriftDrifted,
			Changes: []executor.Change{{Action: executor.Update, Address: "eoslab_server.proxy", Detail: `size "small" → "large"`}}}}},
	}
	golden(t, "drift", Drift(results, at, nil))
	v := viewWith(results, map[string]string{"production/jenkins": "clean", "staging/grafana": "drifted"})
	golden(t, "digest", Digest(results, v, at, at, false))
	golden(t, "digest_late", Digest(results[:1], v, at, at.Add(-48*time.Hour), true))
	golden(t, "drift_quiet", Drift(results[:1], at, nil))
	// A snoozed service is marked, with who snoozed it and until when; a snooze of other drift
	// (another Fingerprint) marks nothing.
	snoozed := map[string]store.Snooze{"production/nextcloud": {Key: "production/nextcloud", User: "dave", At: at,
		Until: at.Add(7 * 24 * time.Hour), Fingerprint: Fingerprint(results[2])}}
	if got := Drift(results, at, snoozed).Plain(); !strings.Contains(got, "nextcloud (production) · Terraform: eoslab_server.proxy size \"small\" → \"large\" · 🔕 snoozed by @dave until ") {
		t.Errorf("the snoozed service is not marked:\n%s", got)
	}
	snoozed["production/nextcloud"] = store.Snooze{Key: "production/nextcloud", User: "dave", At: at, Until: at.Add(time.Hour), Fingerprint: "other drift"}
	if got := Drift(results, at, snoozed).Plain(); strings.Contains(got, "🔕 snoozed") {
		t.Errorf("a snooze of other drift marks this one:\n%s", got)
	}
}
