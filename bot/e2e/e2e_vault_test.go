package e2e_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	vaultapi "github.com/hashicorp/vault/api"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor/vault"
)

// realVault connects to the Vault dev server `make test` starts (scripts/testenv/vault.sh).
func realVault(t *testing.T) (*vault.Store, *vaultapi.Client) {
	t.Helper()
	addr, token := os.Getenv("EOS_TEST_VAULT_ADDR"), os.Getenv("EOS_TEST_VAULT_TOKEN")
	if addr == "" || token == "" {
		eostest.Missing(t, "EOS_TEST_VAULT_ADDR and EOS_TEST_VAULT_TOKEN not set: run scripts/testenv/vault.sh start DIR and source DIR/env")
	}
	st, err := vault.New(context.Background(), vault.Config{Address: addr, Token: token, PathTemplate: "eos-e2e/{env}/{service}"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := vaultapi.NewClient(&vaultapi.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	c.SetToken(token)
	return st, c
}

// create grafana generates its admin password into Vault, shows only the path, keeps the value
// out of chat, logs, the store and Terraform's files; a later create reuses it; a password
// typed in chat is refused.
func TestE2EVaultSecretsThroughTheBot(t *testing.T) {
	secrets, client := realVault(t)
	env := "e2e" + strings.ToLower(t.Name()[len(t.Name())-4:])
	h := eostest.New(t, eostest.Options{Secrets: secrets, SecretsPath: "secret/eos-e2e/{env}/{service}, key {name}", Environments: []string{env}})
	path := "secret/eos-e2e/" + env + "/grafana#admin_password"
	client.KVv2("secret").DeleteMetadata(context.Background(), "eos-e2e/"+env+"/grafana")

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana in "+env)
	if !strings.Contains(p.Text, "Vault     | creates 1 secret ("+path+"), reuses 0 — values never shown") {
		t.Errorf("preview's Vault row:\n%s", p.Text)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	kv, err := client.KVv2("secret").Get(context.Background(), "eos-e2e/"+env+"/grafana")
	if err != nil {
		t.Fatalf("the secret is not in Vault: %v", err)
	}
	value, _ := kv.Data["admin_password"].(string)
	if len(value) < 16 {
		t.Fatalf("generated secret is %d characters", len(value))
	}
	for _, post := range h.Console.Posts() {
		if strings.Contains(post.Text, value) {
			t.Fatalf("the secret appeared in chat: post %d", post.ID)
		}
	}
	if strings.Contains(h.Log.String(), value) {
		t.Fatal("the secret appeared in the logs")
	}
	filepath.WalkDir(h.DataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if raw, _ := os.ReadFile(p); bytes.Contains(raw, []byte(value)) {
			t.Errorf("the secret is stored in %s", p)
		}
		return nil
	})

	// Destroy leaves the secret; a new create reuses it.
	dp, did := eostest.Preview(t, h, "alice", "@eos destroy grafana in "+env)
	if !strings.Contains(dp.Text, "keeps 1 secret (grafana/admin_password): a later create reuses it; add --purge-secrets to delete it") {
		t.Errorf("destroy preview does not say the secret is kept:\n%s", dp.Text)
	}
	h.React("bob", dp.ID, "+1")
	h.WaitText(dp.ID, "Run "+did+" · done in")
	again, _ := eostest.Preview(t, h, "alice", "@eos create grafana in "+env)
	if !strings.Contains(again.Text, "creates 0 secrets, reuses 1 ("+path+")") {
		t.Errorf("second create does not reuse the secret:\n%s", again.Text)
	}

	h.React("bob", again.ID, "+1")
	h.WaitText(again.ID, "· done in")
	kv2, err := client.KVv2("secret").Get(context.Background(), "eos-e2e/"+env+"/grafana")
	if err != nil || kv2.Data["admin_password"] != value {
		t.Fatalf("the reused secret changed or vanished: %v", err)
	}

	// destroy --purge-secrets deletes it.
	pp, pid := eostest.Preview(t, h, "alice", "@eos destroy grafana --purge-secrets in "+env)
	if !strings.Contains(pp.Text, "deletes 1 secret (grafana/admin_password) after the destroy (--purge-secrets)") {
		t.Errorf("purge preview:\n%s", pp.Text)
	}
	h.React("bob", pp.ID, "+1")
	h.WaitText(pp.ID, "Run "+pid+" · done in", "Vault ✅ deleted 1 secret")
	if _, err := client.KVv2("secret").Get(context.Background(), "eos-e2e/"+env+"/grafana"); err == nil {
		t.Error("the secret is still in Vault after destroy --purge-secrets")
	}

	after := h.Last()
	h.Say("alice", "@eos create grafana --admin-password hunter2 in "+env)
	refusal := h.WaitPost(after, func(console.Post) bool { return true })
	if !strings.Contains(refusal.Text, "Secrets are never typed in chat: I generate grafana's admin password and keep it in Vault at") || !strings.Contains(refusal.Text, "secret/eos-e2e/"+env+"/grafana, key admin_password") || strings.Contains(refusal.Text, "hunter2") {
		t.Errorf("refusal:\n%s", refusal.Text)
	}
}
