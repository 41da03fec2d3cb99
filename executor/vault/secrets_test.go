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
	paths := []string{"secret/eos/" + env + "/grafana/admin_password", "secret/eos/" + env + "/grafana/api_key"}

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
	first := readValue(t, root, "eos/"+env+"/grafana/admin_password")
	if len(first) != DefaultSecretLength || strings.Trim(first, alphabet) != "" {
		t.Fatalf("generated secret has length %d or characters outside the alphabet", len(first))
	}
	if readValue(t, root, "eos/"+env+"/grafana/api_key") == first {
		t.Fatal("two secrets got the same value")
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
	if again := readValue(t, root, "eos/"+env+"/grafana/admin_password"); again != first {
		t.Fatal("the second ensure changed an existing secret")
	}
	if _, err := root.KVv2("secret").Get(ctx, "eos/"+env+"/old/admin_password"); err == nil {
		t.Error("a unit being destroyed got a secret")
	}
	assertNoValues(t, logs.String(), root, []string{"eos/" + env + "/grafana/admin_password", "eos/" + env + "/grafana/api_key"})
}

// TestEnsureConflictReusesTheOtherWriters simulates a second Eos writing the secret between
// this one's lookup and its write: the check-and-set write fails and the other's value stands.
func TestEnsureConflictReusesTheOtherWriters(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	path := "eos/" + env + "/grafana/admin_password"
	s.generate = func(n int) string {
		if _, err := root.KVv2("secret").Put(ctx, path, map[string]any{"value": "theirs-theirs-theirs"}); err != nil {
			t.Fatalf("the other writer's put: %v", err)
		}
		return generate(n)
	}
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	done, err := s.EnsureSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	if want := (executor.SecretPlan{Reuse: []string{"secret/" + path}}); !reflect.DeepEqual(done, want) {
		t.Fatalf("ensure = %+v, want %+v", done, want)
	}
	if got := readValue(t, root, path); got != "theirs-theirs-theirs" {
		t.Fatal("the other writer's secret was overwritten")
	}
}

// TestDeletedSecretIsGeneratedAgain: a secret whose latest version someone deleted counts as
// missing; the new one is written with check-and-set on the current version.
func TestDeletedSecretIsGeneratedAgain(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	path := "eos/" + env + "/grafana/admin_password"
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	if _, err := s.EnsureSecrets(ctx, spec); err != nil {
		t.Fatalf("EnsureSecrets: %v", err)
	}
	old := readValue(t, root, path)
	if err := root.KVv2("secret").Delete(ctx, path); err != nil {
		t.Fatalf("deleting: %v", err)
	}
	plan, err := s.PlanSecrets(ctx, spec)
	if err != nil || len(plan.Create) != 1 {
		t.Fatalf("plan after delete = %+v, %v; want one Create", plan, err)
	}
	if done, err := s.EnsureSecrets(ctx, spec); err != nil || len(done.Create) != 1 {
		t.Fatalf("ensure after delete = %+v, %v; want one Create", done, err)
	}
	if v := readValue(t, root, path); v == "" || v == old {
		t.Fatal("the deleted secret was not generated again")
	}
}

func TestMalformedSecretIsAnError(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	s := newStore(t, Config{})
	env := uniqueEnv(t)
	path := "eos/" + env + "/grafana/admin_password"
	if _, err := root.KVv2("secret").Put(ctx, path, map[string]any{"password": "hunter2-hunter2"}); err != nil {
		t.Fatal(err)
	}
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	_, err := s.PlanSecrets(ctx, spec)
	if err == nil || !strings.Contains(err.Error(), `has no non-empty string "value"`) {
		t.Fatalf("PlanSecrets error = %v, want a malformed-secret error", err)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Fatal("the error contains the stored value")
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
	path := "eos/" + env + "/grafana/admin_password"
	if _, err := root.KVv2("secret").Put(ctx, path, map[string]any{"value": "second-version-value"}); err != nil {
		t.Fatal(err)
	}
	spec.Units[0].Destroy = true
	purged, err := s.PurgeSecrets(ctx, spec)
	if err != nil {
		t.Fatalf("PurgeSecrets: %v", err)
	}
	if want := []string{"secret/" + path}; !reflect.DeepEqual(purged, want) {
		t.Fatalf("purged %v, want %v", purged, want)
	}
	if _, err := root.KVv2("secret").GetMetadata(ctx, path); err == nil {
		t.Fatal("metadata (and so old versions) still exist after purge")
	}
	if _, err := root.KVv2("secret").GetVersion(ctx, path, 1); err == nil {
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

// assertNoValues fails when log contains the value at any of paths or the root token.
func assertNoValues(t *testing.T, log string, root interface{ Token() string }, paths []string) {
	t.Helper()
	if tok := root.Token(); strings.Contains(log, tok) {
		t.Errorf("the log contains the token:\n%s", log)
	}
	c := rootClient(t)
	for _, p := range paths {
		if v := readValue(t, c, p); strings.Contains(log, v) {
			t.Errorf("the log contains the value of %s:\n%s", p, log)
		}
	}
	if !strings.Contains(log, "generated secret") {
		t.Errorf("the log does not say what was generated:\n%s", log)
	}
}
