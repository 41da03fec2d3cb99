package enginetest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// approved asks for text, has bob approve the preview and waits for the run to finish.
func approved(t *testing.T, h *eostest.Harness, text string) (console.Post, string) {
	t.Helper()
	p, id := eostest.Preview(t, h, "alice", text)
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	return p, id
}

func declared(t *testing.T, h *eostest.Harness, key string) *store.Deployed {
	t.Helper()
	d, err := h.Store.Declared(context.Background(), key)
	if err != nil {
		t.Fatalf("declared %s: %v", key, err)
	}
	return d
}

func TestDeployedDependencyKeepsItsValues(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	_, aid := approved(t, h, "@eos create authentik --domain sso.example.org --frontend-for nextcloud")

	p, id := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
	if !strings.Contains(p.Text, "authentik: deployed, unchanged (needed because of --sso); this run leaves it alone.") {
		t.Errorf("the preview does not say authentik is deployed and unchanged:\n%s", p.Text)
	}
	for _, bad := range []string{"Also brings in authentik", "authentik terraform", "eoslab_dns_record.main, authentik"} {
		if strings.Contains(p.Text, bad) {
			t.Errorf("the preview contains %q, but nothing of authentik changes:\n%s", bad, p.Text)
		}
	}
	if !strings.Contains(p.Text, "Terraform | +4 ~0 −0") {
		t.Errorf("want only nextcloud's four resources planned:\n%s", p.Text)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	ak := declared(t, h, "local/authentik")
	if got := ak.Spec.Units[0].Values["domain"]; got != "sso.example.org" {
		t.Errorf("authentik's declared domain is %q after create nextcloud --sso, want sso.example.org", got)
	}
	if ak.RunID != aid {
		t.Errorf("authentik's declared state was rewritten by run %s; it should still be run %s's", ak.RunID, aid)
	}
	if _, err := os.Stat(filepath.Join(h.Cloud(), "dns_record", "sso.example.org_A.json")); err != nil {
		t.Errorf("authentik's DNS record for sso.example.org is gone: %v", err)
	}
	if d := declared(t, h, "local/nextcloud"); d.RunID != id || d.Spec.Units[0].Values["sso"] != "true" {
		t.Errorf("declared nextcloud = %+v", d.Spec.Units)
	}
}

func TestDeployedDependencyGetsOnlyItsRequirementsFlags(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	approved(t, h, "@eos create authentik --domain sso.example.org")

	// The requires block sets --frontend-for; the domain stays what authentik was deployed with.
	p, id := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
	if !strings.Contains(p.Text, "Also brings in authentik (because of --sso): deployed, changes --frontend-for unset → nextcloud; planned in the same run: Terraform +0 ~1 −0") {
		t.Errorf("the preview does not say what changes of authentik:\n%s", p.Text)
	}
	if strings.Contains(p.Text, "auth.local.test") {
		t.Errorf("the preview brings authentik back to its default domain:\n%s", p.Text)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	vals := declared(t, h, "local/authentik").Spec.Units[0].Values
	if vals["domain"] != "sso.example.org" || vals["frontend-for"] != "nextcloud" {
		t.Errorf("declared authentik = %v, want domain sso.example.org and frontend-for nextcloud", vals)
	}
}

func TestDestroyRequiredServiceIsRefused(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	approved(t, h, "@eos create nextcloud --sso")

	after := h.Last()
	h.Say("alice", "@eos destroy authentik")
	got := h.WaitPost(after, func(console.Post) bool { return true })
	want := "authentik is required by nextcloud in local (for --sso): destroy those first, or add --with-dependents to plan their removal too"
	if !strings.Contains(got.Text, want) {
		t.Errorf("destroy authentik answered:\n%s\nwant %q", got.Text, want)
	}
	plans, _ := h.Store.Plans(context.Background(), func(p *store.Plan) bool { return p.Plan.Spec.Verb == "destroy" })
	if len(plans) != 0 {
		t.Errorf("the refused destroy stored %d plans", len(plans))
	}
	if declared(t, h, "local/authentik").Destroyed {
		t.Error("authentik is declared destroyed")
	}

	// Who needs authentik is read from nextcloud's declared values: without --sso it needs
	// nothing, and authentik may go.
	approved(t, h, "@eos update nextcloud --no-sso")
	p, _ := eostest.Preview(t, h, "alice", "@eos destroy authentik")
	if !strings.Contains(p.Text, "destroy authentik in local") || strings.Contains(p.Text, "nextcloud") {
		t.Errorf("destroy of an unneeded authentik:\n%s", p.Text)
	}
}

func TestDestroyWithDependents(t *testing.T) {
	t.Parallel()
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1, SelfApproval: true,
		Verbs: map[string]bot.VerbPolicy{"destroy": {Approvals: 2}}}}
	h := eostest.New(t, eostest.Options{Policy: policy})
	approved(t, h, "@eos create nextcloud --sso")

	p, id := eostest.Preview(t, h, "alice", "@eos destroy authentik --with-dependents")
	for _, want := range []string{
		"Plan " + id + " · destroy authentik --with-dependents in local",
		"Terraform | +0 ~0 −7",
		"Also removes nextcloud (it requires authentik for --sso): destroyed first, in the same run.",
		"Needs 2 approvals", // the destroy policy
	} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, p.Text)
		}
	}
	stored, err := h.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, u := range stored.Plan.Spec.Units {
		if !u.Destroy {
			t.Errorf("unit %s is not destroyed", u.Service)
		}
		order = append(order, u.Service)
	}
	if strings.Join(order, ",") != "nextcloud,authentik" {
		t.Errorf("destroy order = %v, want the dependent nextcloud before authentik", order)
	}

	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID-1, "Plan "+id, "1 of 2: @bob ✅")
	h.React("carol", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	for _, key := range []string{"local/nextcloud", "local/authentik"} {
		if d := declared(t, h, key); !d.Destroyed || d.RunID != id {
			t.Errorf("%s after the run: destroyed %v by run %s, want destroyed by %s", key, d.Destroyed, d.RunID, id)
		}
	}
	for _, f := range []string{"server/proxy-nextcloud-local.json", "server/proxy-authentik-local.json"} {
		if _, err := os.Stat(filepath.Join(h.Cloud(), f)); !os.IsNotExist(err) {
			t.Errorf("%s still exists after the destroy (stat: %v)", f, err)
		}
	}
}
