package nomad

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	vaultapi "github.com/hashicorp/vault/api"

	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/vault"
)

// secretTemplate is a raw_exec job whose template stanza reads the unit's secrets entry at the
// path Eos binds, hands db_password to the task as an environment variable, and whose task
// writes it to the file var.out, so the test sees what the workload got.
const secretTemplate = `
variable "vault_secrets_path" {
  type    = string
  default = ""
}

variable "vault_policy" {
  type = string
}

variable "out" {
  type = string
}

job "ignored-by-eos" {
  datacenters = ["dc1"]
  type        = "service"

  update {
    max_parallel      = 1
    health_check      = "task_states"
    min_healthy_time  = "1s"
    healthy_deadline  = "30s"
    progress_deadline = "45s"
    auto_revert       = false
  }

  group "app" {
    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "main" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      vault {
        policies = [var.vault_policy]
      }

      template {
        destination = "secrets/db.env"
        env         = true
        data        = <<-EOT
          {{ with secret "${var.vault_secrets_path}" }}DB_PASSWORD={{ .Data.data.db_password }}{{ end }}
        EOT
      }

      env {
        OUT = var.out
      }

      config {
        command = "/bin/sh"
        args    = ["-c", "printf %s \"$DB_PASSWORD\" > \"$OUT.tmp\" && mv \"$OUT.tmp\" \"$OUT\" && exec sleep 3600"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`

// vaultForWorkloads is the test Vault and its root token, and checks that the test Nomad agent
// integrates with that same Vault. Without them the test skips, unless CI is set.
func vaultForWorkloads(t *testing.T) (addr, token string) {
	t.Helper()
	addr, token = os.Getenv("EOS_TEST_VAULT_ADDR"), os.Getenv("EOS_TEST_VAULT_TOKEN")
	agentVault := os.Getenv("EOS_TEST_NOMAD_VAULT_ADDR")
	var missing string
	switch {
	case addr == "" || token == "":
		missing = "EOS_TEST_VAULT_ADDR and EOS_TEST_VAULT_TOKEN are not set: start scripts/testenv/vault.sh"
	case agentVault != addr:
		missing = "the test Nomad agent does not integrate with the test Vault (EOS_TEST_NOMAD_VAULT_ADDR=" + agentVault +
			"): source vault.sh's env before scripts/testenv/nomad.sh start"
	}
	if missing != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(missing)
		}
		t.Skip(missing)
	}
	return addr, token
}

// TestWorkloadReadsTheSecretEosGenerated: Eos generates a service's secret into Vault, the
// Nomad layer points the job's template at the entry, and what the running task received is
// exactly what Vault holds; the value itself never passes through the job Eos registered.
func TestWorkloadReadsTheSecretEosGenerated(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	vaultAddr, token := vaultForWorkloads(t)
	ctx := testCtx(t)
	const svc = "secretapp"

	root, err := vaultapi.NewClient(&vaultapi.Config{Address: vaultAddr})
	if err != nil {
		t.Fatal(err)
	}
	root.SetToken(token)
	entry := "eos/" + e.env + "/" + svc
	policy := "eos-e2e-" + e.env
	if err := root.Sys().PutPolicyWithContext(ctx, policy, `path "secret/data/eos/`+e.env+`/*" { capabilities = ["read"] }`); err != nil {
		t.Fatalf("writing the policy: %v", err)
	}
	t.Cleanup(func() {
		_ = root.Sys().DeletePolicy(policy)
		_ = root.KVv2("secret").DeleteMetadata(context.Background(), entry)
	})
	store, err := vault.New(ctx, vault.Config{Address: vaultAddr, Token: token})
	if err != nil {
		t.Fatalf("vault.New: %v", err)
	}
	layer, err := New(Config{Address: agentAddr(t), DeployTimeout: 90 * time.Second, SecretsPath: vault.NomadSecretsPath("", "")})
	if err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), "db_password")
	e.mu.Lock()
	e.services[svc] = true
	e.mu.Unlock()
	spec := executor.Spec{Verb: "create", Target: svc, Env: e.env, Units: []executor.Unit{{
		Service: svc, Secrets: []string{"db_password", "admin_password"},
		Nomad: &executor.NomadPart{Template: secretTemplate, Vars: map[string]any{"vault_policy": policy, "out": out}},
	}}}
	if done, err := store.EnsureSecrets(ctx, spec); err != nil || len(done.Create) != 2 {
		t.Fatalf("EnsureSecrets = %+v, %v; want two generated", done, err)
	}
	p, err := layer.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if res, err := layer.Apply(ctx, spec, p, executor.Observe(nil, nil)); err != nil || res.Status != executor.ResultOK {
		t.Fatalf("Apply = %+v, %v", res, err)
	}

	kv, err := root.KVv2("secret").Get(ctx, entry)
	if err != nil {
		t.Fatalf("reading %s: %v", entry, err)
	}
	want, _ := kv.Data["db_password"].(string)
	if len(want) < vault.DefaultSecretLength {
		t.Fatalf("Vault holds a db_password of %d characters", len(want))
	}
	got := waitFile(t, out)
	if got != want {
		// Lengths only: secrets never go into test output.
		t.Fatalf("the workload got a db_password of %d characters that differs from Vault's (%d characters)", len(got), len(want))
	}

	job, _, err := e.api.Jobs().Info(e.id(svc), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(job)
	if bytes.Contains(raw, []byte(want)) {
		t.Error("the secret's value is in the registered job; it must only reach the task through Vault")
	}
	if !bytes.Contains(raw, []byte(`secret \"secret/data/`+entry+`\"`)) {
		t.Errorf("the job's template does not read secret/data/%s", entry)
	}
}

// waitFile polls until path holds something, or fails at the test's deadline.
func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && len(b) > 0 {
			return string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workload wrote nothing to %s within a minute (%v)", path, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
