package vault

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/vault/api"

	"github.com/eosbot/eos/executor"
)

// make run starts its Vault with vault.sh start-durable (scripts/run.sh): a server that keeps
// its data in .eos/vault, initialised the first time and unsealed at each start. A secret Eos
// generated in one session is found again, unchanged, in the next; a dev server (in memory)
// would generate a new one each time, and every service would get a new password.
func TestADurableVaultKeepsTheSecretsEosGenerated(t *testing.T) {
	liveVault(t) // the test servers are built: the script finds the binary in the cache
	dir := t.TempDir()
	script := filepath.Join("..", "..", "scripts", "testenv", "vault.sh")
	run := func(cmd string) {
		t.Helper()
		if out, err := exec.Command(script, cmd, dir).CombinedOutput(); err != nil {
			t.Fatalf("vault.sh %s: %v\n%s", cmd, err, out)
		}
	}
	t.Cleanup(func() { exec.Command(script, "stop", dir).Run() })
	start := func() Config {
		t.Helper()
		run("start-durable")
		env, err := os.ReadFile(filepath.Join(dir, "env"))
		if err != nil {
			t.Fatal(err)
		}
		addr := regexp.MustCompile(`EOS_TEST_VAULT_ADDR=(\S+)`).FindSubmatch(env)
		token := regexp.MustCompile(`EOS_TEST_VAULT_TOKEN=(\S+)`).FindSubmatch(env)
		if addr == nil || token == nil {
			t.Fatalf("no address or token in %s/env", dir)
		}
		return Config{Address: string(addr[1]), Token: string(token[1])}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	spec := executor.Spec{Verb: "create", Target: "grafana", Env: "local",
		Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	cfg := start()
	for _, f := range []string{"init.json", "env"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s holds the root token: want mode 0600, got %v", f, fi.Mode().Perm())
		}
	}
	s, err := New(ctx, cfg)
	if err != nil {
		t.Fatalf("New on the new durable server: %v", err)
	}
	done, err := s.EnsureSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	if want := []string{"secret/eos/local/grafana#admin_password"}; !reflect.DeepEqual(done.Create, want) {
		t.Fatalf("first ensure created %v, want %v", done.Create, want)
	}
	first := durableKey(t, cfg, "eos/local/grafana", "admin_password")

	run("stop")
	cfg = start()
	s, err = New(ctx, cfg)
	if err != nil {
		t.Fatalf("New after the restart (still sealed?): %v", err)
	}
	plan, err := s.PlanSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("PlanSecrets after the restart: %v", err)
	}
	if len(plan.Create) != 0 || len(plan.Reuse) != 1 {
		t.Fatalf("after the restart the plan is %+v, want the secret reused", plan)
	}
	if again := durableKey(t, cfg, "eos/local/grafana", "admin_password"); again != first {
		t.Error("the secret changed across the restart")
	}
}

// durableKey reads one key of an entry with the server's root token.
func durableKey(t *testing.T, cfg Config, entry, key string) string {
	t.Helper()
	c, err := api.NewClient(&api.Config{Address: cfg.Address})
	if err != nil {
		t.Fatal(err)
	}
	c.SetToken(cfg.Token)
	v := readKey(t, c, entry, key)
	if v == "" {
		t.Fatalf("no %s in %s", key, entry)
	}
	return v
}
