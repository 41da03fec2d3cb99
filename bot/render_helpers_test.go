package bot

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	goldenfile "github.com/eosbot/eos/internal/golden"
)

// The engine's tests that check a rendering through the engine (a preview with its dependency
// lines, a redacted preview, a page link) share these fixtures; the renderings alone are tested
// in bot/render, which has fixtures of its own.

func golden(t *testing.T, name string, doc adapters.Doc) {
	t.Helper()
	got := doc.Plain()
	if doc.Attachment != nil {
		got += "\n--- attachment " + doc.Attachment.Name + "\n" + doc.Attachment.Text
	}
	got += "\n"
	goldenfile.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

var at = time.Date(2026, 11, 23, 14, 2, 0, 0, time.UTC)

func samplePlan() *store.Plan {
	spec := executor.Spec{Verb: "create", Target: "nextcloud", Env: "production", Asked: []string{"--sso"}, Units: []executor.Unit{
		{Service: "authentik", Reason: "because of --sso", Secrets: []string{"secret_key"}},
		{Service: "nextcloud", Secrets: []string{"admin_password"}},
	}}
	layers := []executor.LayerPlan{
		{Layer: executor.Salt, Status: executor.PlanNotConfigured},
		{Layer: executor.Terraform, Status: executor.PlanChanges, Summary: "+5 ~0 −0: terraform_data.server, terraform_data.volume, and 3 more",
			Changes: []executor.Change{
				{Unit: "authentik", Action: executor.Create, Address: "terraform_data.server"},
				{Unit: "authentik", Action: executor.Create, Address: "terraform_data.dns"},
				{Unit: "nextcloud", Action: executor.Create, Address: "terraform_data.server"},
				{Unit: "nextcloud", Action: executor.Create, Address: "terraform_data.volume"},
				{Unit: "nextcloud", Action: executor.Update, Address: "terraform_data.dns", Detail: `name "a" → "b"`},
			}},
		{Layer: executor.Nomad, Status: executor.PlanNothing},
	}
	return &store.Plan{ID: "7f3a9c21", State: store.PlanPending, Text: "@eos create nextcloud --sso",
		Requester: adapters.User{Name: "alice"}, Needed: 1, Created: at, Expires: at.Add(30 * time.Minute),
		Plan: executor.Plan{Spec: spec, Layers: layers, Hash: "0123456789abcdef0123456789abcdef"}}
}

// goldenText compares got with testdata/name, rewriting it under -update.
func goldenText(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), []byte(got))
}

// riskPolicy asks one approval in production, and two for a plan that loses data.
func riskPolicy() Policy {
	return Policy{Envs: map[string]EnvPolicy{"production": {Approvers: []string{"bob", "dave", "group:sre"}, Approvals: 1,
		Risks: map[string]RiskPolicy{RiskDataLoss: {Approvals: 2}}}}}
}
