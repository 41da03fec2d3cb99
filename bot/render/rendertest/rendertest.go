// Package rendertest holds the fixtures the texts' tests share: bot/render's own tests and the
// engine's tests that check a rendering through the engine. Test support only.
package rendertest

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	goldenfile "github.com/eosbot/eos/internal/golden"
)

// Golden compares doc, as plain text with its attachment, with testdata/NAME.golden in the
// calling test's package (rewritten with -update).
func Golden(t *testing.T, name string, doc adapters.Doc) {
	t.Helper()
	got := doc.Plain()
	if doc.Attachment != nil {
		got += "\n--- attachment " + doc.Attachment.Name + "\n" + doc.Attachment.Text
	}
	got += "\n"
	goldenfile.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

// At is the fixtures' "now".
var At = time.Date(2026, 11, 23, 14, 2, 0, 0, time.UTC)

// SamplePlan is a pending plan for `create nextcloud --sso` in production: authentik brought
// in by --sso, five Terraform changes, Salt not configured, nothing for Nomad.
func SamplePlan() *store.Plan {
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
		Requester: adapters.User{Name: "alice"}, Needed: 1, Created: At, Expires: At.Add(30 * time.Minute),
		Plan: executor.Plan{Spec: spec, Layers: layers, Hash: "0123456789abcdef0123456789abcdef"}}
}
