package vault

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/vault/api"

	"github.com/eosbot/eos/executor"
)

// eosPolicy lets a token manage Eos's secrets and nothing else.
const eosPolicy = `
path "secret/data/eos/*" { capabilities = ["create", "read", "update"] }
path "secret/metadata/eos/*" { capabilities = ["read", "delete"] }
`

// readOnlyPolicy lets a token read Eos's secrets but not write them.
const readOnlyPolicy = `
path "secret/data/eos/*" { capabilities = ["read"] }
`

// appRole enables AppRole at a fresh mount with a role bound to policy and returns the role's
// credentials.
func appRole(t *testing.T, root *api.Client, policy string) *AppRole {
	t.Helper()
	ctx := context.Background()
	mount := "approle-" + uniqueEnv(t)
	if err := root.Sys().EnableAuthWithOptionsWithContext(ctx, mount, &api.EnableAuthOptions{Type: "approle"}); err != nil {
		t.Fatalf("enabling approle: %v", err)
	}
	t.Cleanup(func() { _ = root.Sys().DisableAuth(mount) })
	polName := "eos-" + mount
	if err := root.Sys().PutPolicyWithContext(ctx, polName, policy); err != nil {
		t.Fatalf("writing the policy: %v", err)
	}
	if _, err := root.Logical().WriteWithContext(ctx, "auth/"+mount+"/role/eos", map[string]any{
		"token_policies": []string{polName}, "token_ttl": "1h", "token_max_ttl": "2h",
	}); err != nil {
		t.Fatalf("creating the role: %v", err)
	}
	rid, err := root.Logical().ReadWithContext(ctx, "auth/"+mount+"/role/eos/role-id")
	if err != nil {
		t.Fatalf("reading the role ID: %v", err)
	}
	sid, err := root.Logical().WriteWithContext(ctx, "auth/"+mount+"/role/eos/secret-id", nil)
	if err != nil {
		t.Fatalf("creating a secret ID: %v", err)
	}
	return &AppRole{Mount: mount, RoleID: rid.Data["role_id"].(string), SecretID: sid.Data["secret_id"].(string)}
}

func TestAppRoleLogin(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	role := appRole(t, root, eosPolicy)
	logs := newLogSink()
	s := newStore(t, Config{AppRole: role, Logger: logs.logger()})
	if tok := s.client.Token(); tok == "" || tok == root.Token() {
		t.Fatal("the store does not use the token from its AppRole login")
	}
	env := uniqueEnv(t)
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	if done, err := s.EnsureSecrets(ctx, spec); err != nil || len(done.Create) != 1 {
		t.Fatalf("EnsureSecrets with the AppRole token = %+v, %v", done, err)
	}
	// The policy is all the token has: a path outside eos/ is refused.
	if _, err := s.kv.Put(ctx, "elsewhere/x", map[string]any{"value": "v"}); err == nil {
		t.Fatal("the AppRole token wrote outside its policy; is the store using the root token?")
	}
	if strings.Contains(logs.String(), role.SecretID) || strings.Contains(logs.String(), s.client.Token()) {
		t.Fatalf("the log contains the secret ID or the token:\n%s", logs.String())
	}

	bad := *role
	bad.SecretID = "00000000-0000-0000-0000-000000000000"
	addr, _ := liveVault(t)
	_, err := New(ctx, Config{Address: addr, AppRole: &bad})
	if err == nil || !strings.Contains(err.Error(), "logging in to Vault at "+addr+" with AppRole") {
		t.Fatalf("New with a wrong secret ID = %v, want a login error", err)
	}
	if strings.Contains(err.Error(), bad.SecretID) {
		t.Fatalf("the login error contains the secret ID: %v", err)
	}
}

// TestWriteErrorHasNoValue uses a read-only token: the write of a generated secret fails, and
// neither the error nor the log may contain the value or the token.
func TestWriteErrorHasNoValue(t *testing.T) {
	ctx := context.Background()
	root := rootClient(t)
	role := appRole(t, root, readOnlyPolicy)
	logs := newLogSink()
	s := newStore(t, Config{AppRole: role, Logger: logs.logger()})
	var value string
	s.generate = func(n int) string { value = generate(n); return value }
	spec := executor.Spec{Env: uniqueEnv(t), Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}
	_, err := s.EnsureSecrets(ctx, spec)
	if err == nil {
		t.Fatal("EnsureSecrets succeeded with a read-only token")
	}
	var re *api.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 403 {
		t.Fatalf("error = %v, want Vault's 403", err)
	}
	if value == "" {
		t.Fatal("no value was generated; the test proves nothing")
	}
	for _, leak := range []string{value, s.client.Token(), role.SecretID} {
		if strings.Contains(err.Error(), leak) || strings.Contains(logs.String(), leak) {
			t.Fatalf("a secret leaked into the error or the log:\nerror: %v\nlog:\n%s", err, logs.String())
		}
	}
}

// TestRunRenewsAPeriodicToken gives the store a child token with a 3-second period: it must
// be renewed, or it would expire during the test, and Run must stop with its context.
func TestRunRenewsAPeriodicToken(t *testing.T) {
	root := rootClient(t)
	child, err := root.Auth().Token().Create(&api.TokenCreateRequest{Period: "3s", Policies: []string{"default"}, NoParent: true})
	if err != nil {
		t.Fatalf("creating the child token: %v", err)
	}
	logs := newLogSink()
	s := newStore(t, Config{Token: child.Auth.ClientToken, Logger: logs.logger()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	// Follow the renewals until the token has lived well past its first 3-second period.
	start := time.Now()
	renewals := 0
	for time.Since(start) < 5*time.Second {
		logs.waitFor(t, "renewed the Vault token", 20*time.Second)
		renewals++
	}
	if renewals < 2 {
		t.Fatalf("%d renewals in %s, want at least 2", renewals, time.Since(start))
	}
	if _, err := s.client.Auth().Token().LookupSelf(); err != nil {
		t.Fatalf("the token expired despite renewal: %v", err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run returned %v after cancel, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if strings.Contains(logs.String(), child.Auth.ClientToken) {
		t.Fatalf("the log contains the token:\n%s", logs.String())
	}
}

func TestRunReturnsForATokenThatNeverExpires(t *testing.T) {
	logs := newLogSink()
	s := newStore(t, Config{Logger: logs.logger()}) // the dev server's root token has no TTL
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background()) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run kept running for a token that never expires")
	}
	if !strings.Contains(logs.String(), "does not expire") {
		t.Errorf("Run did not say why it returned:\n%s", logs.String())
	}
}
