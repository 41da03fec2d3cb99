package vault

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

func grafanaSpec(env string) executor.Spec {
	return executor.Spec{Verb: "create", Target: "grafana", Env: env, Units: []executor.Unit{
		{Service: "grafana", Secrets: []string{"admin_password", "api_key", "admin_password"}},
		{Service: "old", Destroy: true, Secrets: []string{"admin_password"}},
	}}
}

func TestPlanCreateThenReuse(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	logs := newLogSink()
	s := newStore(t, Config{Logger: logs.logger()})
	env := uniqueEnv(t)
	spec := grafanaSpec(env)
	entry := "eos/" + env + "/grafana"
	paths := []string{"secret/" + entry + "#admin_password", "secret/" + entry + "#api_key"}

	plan, err := s.PlanSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("PlanSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Create: paths}); !reflect.DeepEqual(plan, want) {
		t.Fatalf("first plan = %+v, want %+v", plan, want)
	}
	done, err := s.EnsureSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Create: paths}); !reflect.DeepEqual(done, want) {
		t.Fatalf("first ensure = %+v, want %+v", done, want)
	}
	first := readKey(t, root, entry, "admin_password")
	if len(first) != DefaultSecretLength || strings.Trim(first, alphabet) != "" {
		t.Fatalf("generated secret has length %d or characters outside the alphabet", len(first))
	}
	if readKey(t, root, entry, "api_key") == first {
		t.Fatal("two secrets got the same value")
	}
	if v := entryVersion(t, root, entry); v != 1 {
		t.Errorf("entry version %d after the first ensure, want 1 (one write for both keys)", v)
	}

	plan, err = s.PlanSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("second PlanSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Reuse: paths}); !reflect.DeepEqual(plan, want) {
		t.Fatalf("second plan = %+v, want %+v", plan, want)
	}
	done, err = s.EnsureSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("second EnsureSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Reuse: paths}); !reflect.DeepEqual(done, want) {
		t.Fatalf("second ensure = %+v, want %+v", done, want)
	}
	if again := readKey(t, root, entry, "admin_password"); again != first {
		t.Fatal("the second ensure changed an existing secret")
	}
	if v := entryVersion(t, root, entry); v != 1 {
		t.Errorf("entry version %d after reusing, want 1 (no write)", v)
	}
	if _, err := root.KVv2("secret").Get(ctx, "eos/"+env+"/old"); err == nil {
		t.Error("a unit being destroyed got a secret")
	}
	assertNoValues(t, logs.String(), root, entry, []string{"admin_password", "api_key"})
}

// TestWritingOneKeyKeepsTheOthers: a key an operator put into the entry, and one another
// writer adds between Eos's read and its write, both survive Eos generating its own key.
func TestWritingOneKeyKeepsTheOthers(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	entry := "eos/" + env + "/grafana"
	if _, err := root.KVv2("secret").Put(ctx, entry, map[string]any{"smtp_password": "operators-own-value"}); err != nil {
		t.Fatal(err)
	}
	raced := false
	s.generate = func(n int) string {
		if !raced {
			raced = true
			if _, err := root.KVv2("secret").Patch(ctx, entry, map[string]any{"other_key": "another-writers-value"}); err != nil {
				t.Fatalf("the other writer's patch: %v", err)
			}
		}
		return generate(n)
	}
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	done, err := s.EnsureSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Create: []string{"secret/" + entry + "#admin_password"}}); !reflect.DeepEqual(done, want) {
		t.Fatalf("ensure = %+v, want %+v", done, want)
	}
	if !raced {
		t.Fatal("the other writer never ran")
	}
	if readKey(t, root, entry, "smtp_password") != "operators-own-value" || readKey(t, root, entry, "other_key") != "another-writers-value" {
		t.Error("a key Eos does not own was lost")
	}
	if v := readKey(t, root, entry, "admin_password"); len(v) != DefaultSecretLength {
		t.Errorf("admin_password has length %d, want %d", len(v), DefaultSecretLength)
	}
}

// TestEnsureConflictReusesTheOtherWriters simulates a second Eos writing the secret between
// this one's read and its write: the check-and-set write fails and the other's value stands.
func TestEnsureConflictReusesTheOtherWriters(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	entry := "eos/" + env + "/grafana"
	s.generate = func(n int) string {
		if _, err := root.KVv2("secret").Put(ctx, entry, map[string]any{"admin_password": "theirs-theirs-theirs"}); err != nil {
			t.Fatalf("the other writer's put: %v", err)
		}
		return generate(n)
	}
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	done, err := s.EnsureSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Reuse: []string{"secret/" + entry + "#admin_password"}}); !reflect.DeepEqual(done, want) {
		t.Fatalf("ensure = %+v, want %+v", done, want)
	}
	if got := readKey(t, root, entry, "admin_password"); got != "theirs-theirs-theirs" {
		t.Fatal("the other writer's secret was overwritten")
	}
}

// TestDeletedSecretIsGeneratedAgain: an entry whose latest version someone deleted counts as
// missing; the new one is written with check-and-set on the current version.
func TestDeletedSecretIsGeneratedAgain(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	entry := "eos/" + env + "/grafana"
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	if _, err := s.EnsureSecrets(ctx, spec); err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	old := readKey(t, root, entry, "admin_password")
	if err := root.KVv2("secret").Delete(ctx, entry); err != nil {
		t.Fatalf("deleting: %v", err)
	}
	plan, err := s.PlanSecrets(ctx, spec)
	if err != nil || len(plan.Create) != 1 {
		t.Fatalf("plan after delete = %+v, %v; want one Create", plan, err)
	}
	if done, err := s.EnsureSecrets(ctx, spec); err != nil || len(done.Create) != 1 {
		t.Fatalf("ensure after delete = %+v, %v; want one Create", done, err)
	}
	if v := readKey(t, root, entry, "admin_password"); v == "" || v == old {
		t.Fatal("the deleted secret was not generated again")
	}
}

func TestMalformedSecretIsAnError(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	if _, err := root.KVv2("secret").Put(ctx, "eos/"+env+"/grafana", map[string]any{"admin_password": ""}); err != nil {
		t.Fatal(err)
	}
	_, err := s.PlanSecrets(ctx, spec)
	if err == nil || !strings.Contains(err.Error(), "#admin_password exists but is not a non-empty string") {
		t.Fatalf("PlanSecrets error = %v, want a malformed-secret error", err)
	}
	// The old layout's entry with the value under another key.
	env = uniqueEnv(t) + "old"
	spec.Env = env
	if _, err := root.KVv2("secret").Put(ctx, "eos/"+env+"/grafana/admin_password", map[string]any{"password": "hunter2-hunter2"}); err != nil {
		t.Fatal(err)
	}
	_, err = s.EnsureSecrets(ctx, spec)
	if err == nil || !strings.Contains(err.Error(), `has no non-empty string "value"`) {
		t.Fatalf("EnsureSecrets error = %v, want a malformed-secret error", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Fatal("the error contains the stored value")
	}
}

// TestOldLayoutIsAdopted: a secret Eos generated before one entry per service (its own entry
// eos/<env>/<service>/<name>, the value under "value") is reused, never generated again: it is
// copied into the service's entry, and purged with it.
func TestOldLayoutIsAdopted(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	entry, legacy := "eos/"+env+"/grafana", "eos/"+env+"/grafana/admin_password"
	const old = "generated-by-an-older-eos"
	if _, err := root.KVv2("secret").Put(ctx, legacy, map[string]any{"value": old}); err != nil {
		t.Fatal(err)
	}
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password", "api_key"}}}}
	plan, err := s.PlanSecrets(ctx, spec)
	want := executor.SecretPlan{Create: []string{"secret/" + entry + "#api_key"}, Reuse: []string{"secret/" + entry + "#admin_password"}}
	if err != nil || !reflect.DeepEqual(plan, want) {
		t.Fatalf("plan = %+v, %v; want %+v", plan, err, want)
	}
	if done, err := s.EnsureSecrets(ctx, spec); err != nil || !reflect.DeepEqual(done, want) {
		t.Fatalf("ensure = %+v, %v; want %+v", done, err, want)
	}
	if readKey(t, root, entry, "admin_password") != old {
		t.Fatal("the old layout's value was not adopted")
	}
	spec.Units[0].Destroy = true
	purged, err := s.PurgeSecrets(ctx, spec)
	if err != nil || len(purged) != 2 {
		t.Fatalf("purged %v, %v; want both secrets", purged, err)
	}
	for _, p := range []string{entry, legacy} {
		if _, err := root.KVv2("secret").GetMetadata(ctx, p); err == nil {
			t.Errorf("%s still exists after purge", p)
		}
	}
}

func TestPurge(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password", "never_created"}}}}
	if _, err := s.EnsureSecrets(ctx, executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}); err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	// A second version, so purging must remove more than the latest.
	entry := "eos/" + env + "/grafana"
	if _, err := root.KVv2("secret").Put(ctx, entry, map[string]any{"admin_password": "second-version-value"}); err != nil {
		t.Fatal(err)
	}
	spec.Units[0].Destroy = true
	purged, err := s.PurgeSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("PurgeSecrets: %v", err)
	}
	if want := []string{"secret/" + entry + "#admin_password"}; !reflect.DeepEqual(purged, want) {
		t.Fatalf("purged %v, want %v", purged, want)
	}
	if _, err := root.KVv2("secret").GetMetadata(ctx, entry); err == nil {
		t.Fatal("metadata (and so old versions) still exist after purge")
	}
	if _, err := root.KVv2("secret").GetVersion(ctx, entry, 1); err == nil {
		t.Fatal("version 1 still readable after purge")
	}
}

func TestProviderEnv(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	logs := newLogSink()
	providers := "eos/" + uniqueEnv(t) + "/providers"
	s := newStore(t, Config{ProviderPath: providers, Logger: logs.logger()})
	if _, err := s.ProviderEnv(ctx, []string{"HCLOUD_TOKEN"}); err == nil || !strings.Contains(err.Error(), "do not exist in Vault") {
		t.Fatalf("ProviderEnv before writing = %v, want a does-not-exist error", err)
	}
	const hcloud = "hcloud-token-value-0123456789"
	if _, err := root.KVv2("secret").Put(ctx, providers, map[string]any{"HCLOUD_TOKEN": hcloud, "OTHER": "other-value-0123"}); err != nil {
		t.Fatal(err)
	}
	env, err := s.ProviderEnv(ctx, []string{"HCLOUD_TOKEN"})
	if err != nil {
		t.Fatalf("ProviderEnv: %v", err)
	}
	if want := map[string]string{"HCLOUD_TOKEN": hcloud}; !reflect.DeepEqual(env, want) {
		t.Fatal("ProviderEnv returned other credentials than asked for")
	}
	_, err = s.ProviderEnv(ctx, []string{"HCLOUD_TOKEN", "CLOUDFLARE_API_TOKEN"})
	if err == nil || !strings.Contains(err.Error(), "lack CLOUDFLARE_API_TOKEN") {
		t.Fatalf("ProviderEnv with a missing key = %v, want it named", err)
	}
	if strings.Contains(err.Error(), hcloud) {
		t.Fatal("the error contains a credential")
	}
	if _, err := s.ProviderEnv(ctx, []string{"BAD=NAME"}); err == nil {
		t.Fatal("ProviderEnv accepted a name that is no environment variable")
	}
	if strings.Contains(logs.String(), hcloud) || strings.Contains(logs.String(), "other-value") {
		t.Fatalf("the log contains a credential:\n%s", logs.String())
	}
}

// assertNoValues fails when log contains the value of any of keys in entry or the root token.
func assertNoValues(t *testing.T, log string, root interface{ Token() string }, entry string, keys []string) {
	t.Helper()
	if tok := root.Token(); strings.Contains(log, tok) {
		t.Errorf("the log contains the token:\n%s", log)
	}
	c := rootClient(t)
	for _, k := range keys {
		if v := readKey(t, c, entry, k); strings.Contains(log, v) {
			t.Errorf("the log contains the value of %s#%s:\n%s", entry, k, log)
		}
	}
	if !strings.Contains(log, "generated secret") {
		t.Errorf("the log does not say what was generated:\n%s", log)
	}
}
