package terraform

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// consulBackend gives a test its own key prefix in the Consul agent that
// scripts/testenv/consul.sh started (EOS_TEST_CONSUL_ADDR). Without it the test skips, unless
// CI is set.
func consulBackend(t *testing.T) *BackendConfig {
	t.Helper()
	addr := testServer(t, "EOS_TEST_CONSUL_ADDR", "consul.sh")
	prefix := "eos-test-" + randomSuffix()
	t.Cleanup(func() { consulKV(t, addr, http.MethodDelete, prefix+"?recurse") })
	return &BackendConfig{Type: BackendConsul, Config: map[string]string{
		"address": addr,
		"scheme":  "http",
		"path":    prefix + "/eos",
	}}
}

// consulKV calls the agent's KV API on key (which may carry a query) and returns the body; a
// 404 is an empty body.
func consulKV(t *testing.T, addr, method, key string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), method, "http://"+addr+"/v1/kv/"+key, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("consul %s %s: %v", method, key, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("consul %s %s: reading the answer: %v", method, key, err)
	}
	if resp.StatusCode == http.StatusNotFound {
		return nil
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("consul %s %s: %s: %s", method, key, resp.Status, body)
	}
	return body
}

// consulKeys lists the keys under the backend's path, relative to it: Terraform keeps a
// workspace's state at "<path>-env:<workspace>" and its lock beside it ("/.lock",
// "/.lockinfo").
func consulKeys(t *testing.T, b *BackendConfig) []string {
	t.Helper()
	path := b.Config["path"]
	body := consulKV(t, b.Config["address"], http.MethodGet, path+"?keys")
	if body == nil {
		return nil
	}
	var keys []string
	if err := json.Unmarshal(body, &keys); err != nil {
		t.Fatalf("decoding the key list %s: %v", body, err)
	}
	for i, k := range keys {
		keys[i] = strings.TrimPrefix(k, path)
	}
	sort.Strings(keys)
	return keys
}

// consulState reads a workspace's state from the KV store; "" when it has none.
func consulState(t *testing.T, b *BackendConfig, workspace string) string {
	t.Helper()
	key := url.PathEscape(b.Config["path"] + "-env:" + workspace)
	return string(consulKV(t, b.Config["address"], http.MethodGet, key+"?raw"))
}

func newConsulLayer(t *testing.T, b *BackendConfig) *Layer {
	t.Helper()
	l, err := New(Config{
		Binary:  terraformBinary(t),
		WorkDir: filepath.Join(t.TempDir(), "work"),
		Timeout: time.Minute,
		Backend: b,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

// State applied through the consul backend lives in Consul's KV store under the unit's
// workspace: no state file in the working directory, the lock let go after the apply, and
// another Eos with a fresh working directory sees the resources as existing.
func TestConsulBackendKeepsStateInConsul(t *testing.T) {
	t.Parallel()
	b := consulBackend(t)
	a := newConsulLayer(t, b)
	s := serverSpec("small")
	if p := mustPlan(t, a, s); p.Status != executor.PlanChanges || len(p.Changes) != 3 {
		t.Fatalf("first plan = %s with %d changes, want 3 creations", p.Status, len(p.Changes))
	} else {
		mustApply(t, a, s, p)
	}

	dir := filepath.Join(a.workDir, "local", "nextcloud")
	for _, name := range []string{"terraform.tfstate", "terraform.tfstate.d"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a local %s exists (%v); the state should be in Consul", name, err)
		}
	}
	if st := consulState(t, b, "local_nextcloud"); !strings.Contains(st, `"terraform_data"`) || !strings.Contains(st, `"volume"`) {
		t.Errorf("Consul's state of workspace local_nextcloud = %.200q, want the applied resources", st)
	}
	// Terraform deletes .lockinfo when it unlocks; the .lock key may stay, without a session.
	for _, k := range consulKeys(t, b) {
		if k != "-env:local_nextcloud" && k != "-env:local_nextcloud/.lock" {
			t.Errorf("key %s%s left in Consul; want only the state and a released lock", b.Config["path"], k)
		}
	}

	other := newConsulLayer(t, b)
	if p := mustPlan(t, other, s); p.Status != executor.PlanNoChanges {
		t.Errorf("a fresh working directory plans %s (%v); want no changes from the shared state", p.Status, p.Changes)
	}
	if d, err := other.Drift(testCtx(t), serverSpec("large")); err != nil || d.Status != executor.DriftDrifted {
		t.Errorf("drift against a changed declaration = %+v, %v; want drifted", d, err)
	}
}

// Two Eos instances (separate working directories) apply the same unit at once through one
// Consul: Terraform's lock (a Consul session on "<state>/.lock") lets exactly one through; the
// other is refused with a message naming the holder from Consul's lock information, rolls
// nothing back, and afterwards plans no changes.
func TestConsulBackendConcurrentApplyOneWins(t *testing.T) {
	t.Parallel()
	b := consulBackend(t)
	layers := []*Layer{newConsulLayer(t, b), newConsulLayer(t, b)}
	s := spec(unit("slow", map[string]string{"main.tf": slowModule}, nil))
	loser, msg := applyRace(t, layers, s)
	// Terraform records the holder as user@host, which both instances share here.
	wantPrefix := "terraform apply for local/slow: the state is locked by " + loser.who + " (apply since "
	if !strings.HasPrefix(msg, wantPrefix) || !strings.HasSuffix(msg, " UTC); try again when that run is done") {
		t.Errorf("lock message = %q\nwant it to start %q and name the apply holding the lock", msg, wantPrefix)
	}

	loserRecovers(t, loser, s)
	if st := consulState(t, b, "local_slow"); !strings.Contains(st, `"slow"`) {
		t.Errorf("Consul's state of workspace local_slow = %.200q, want the winner's resource", st)
	}
}

// consulLockSummaryText is Terraform 1.11's refusal when another run holds the lock of a named
// workspace in Consul: the holder's lock information is in the summary, the detail is empty.
const consulLockSummaryText = "error loading state: failed to lock state in Consul: Lock Info:\n  ID:        733a204c-951c-e5cc-e958-0fd144afadaa\n  Path:      eos/state-env:local_web\n  Operation: OperationTypeApply\n  Who:       ops@build-1\n  Version:   1.11.4\n  Created:   2026-11-23 05:54:07.051281468 +0000 UTC\n  Info:      consul session: 733a204c-951c-e5cc-e958-0fd144afadaa\n"

func TestLockInfoOfConsul(t *testing.T) {
	holder := LockInfo{Who: "ops@build-1", Operation: "apply", Created: time.Date(2026, 11, 23, 5, 54, 7, 51281468, time.UTC)}
	text := "exit status 1\n\n\x1b[31m╷\x1b[0m\n\x1b[31m│\x1b[0m \x1b[1mError: "
	for _, line := range strings.Split(consulLockSummaryText, "\n") {
		text += "│ " + line + "\n"
	}
	text += "╵\n"
	tests := []struct {
		name, stdout, stderr string
		want                 LockInfo
		ok                   bool
	}{
		{"json", `{"@level":"error","diagnostic":{"severity":"error","summary":` + jsonString(consulLockSummaryText) + `,"detail":""},"type":"diagnostic"}`, "exit status 1", holder, true},
		{"text", "", text, holder, true},
		// Consul down is a failed check, not a held lock: there is no holder to name.
		{"unreachable", `{"@level":"error","diagnostic":{"severity":"error","summary":"error loading state: failed to lock state in Consul: Put \"http://127.0.0.1:1/v1/session/create\": dial tcp 127.0.0.1:1: connect: connection refused","detail":""},"type":"diagnostic"}`, "exit status 1", LockInfo{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := lockInfoOf([]byte(tt.stdout), tt.stderr)
			if ok != tt.ok || (ok && (got.Who != tt.want.Who || got.Operation != tt.want.Operation || !got.Created.Equal(tt.want.Created))) {
				t.Fatalf("lockInfoOf = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// The backend's secret argument (Consul's access_token) reaches every terraform command
// through its environment and never its command line.
func TestConsulTokenReachesTerraformThroughItsEnvironment(t *testing.T) {
	t.Parallel()
	b := consulBackend(t)
	const token = "c0nsul-t0ken-never-on-the-command-line"
	b.Config["access_token"] = token
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$1 token=${CONSUL_HTTP_TOKEN:-none} args=$*\" >> " + shellQuote(log) + "\nexec " + shellQuote(terraformBinary(t)) + " \"$@\"\n"
	bin := filepath.Join(dir, "terraform")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(dir, "work"), Timeout: time.Minute, Backend: b})
	if err != nil {
		t.Fatal(err)
	}
	mustPlan(t, l, serverSpec("small"))
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var backendCalls int
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		sub, rest, _ := strings.Cut(line, " ")
		_, args, _ := strings.Cut(rest, " args=")
		if strings.Contains(args, token) {
			t.Errorf("terraform %s got the token on its command line: %s", sub, args)
		}
		if sub == "init" || sub == "plan" || sub == "workspace" {
			backendCalls++
			if !strings.HasPrefix(rest, "token="+token+" ") {
				t.Errorf("terraform %s ran without CONSUL_HTTP_TOKEN: %s", sub, rest)
			}
		}
	}
	if backendCalls < 2 {
		t.Errorf("only %d init/plan/workspace calls logged:\n%s", backendCalls, raw)
	}
}

// With a lock timeout, a plan that finds the workspace held by another run's apply waits for
// it instead of failing, and then sees what that apply did.
func TestConsulLockTimeoutWaitsForTheHolder(t *testing.T) {
	t.Parallel()
	b := consulBackend(t)
	holder := newConsulLayer(t, b)
	waiter, err := New(Config{Binary: terraformBinary(t), WorkDir: filepath.Join(t.TempDir(), "work"), Timeout: time.Minute,
		Backend: b, LockTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	s := spec(unit("slow", map[string]string{"main.tf": slowModule}, nil))
	p := mustPlan(t, holder, s)
	applied := make(chan error, 1)
	go func() {
		_, err := holder.Apply(testCtx(t), s, p, executor.Observe(func(executor.Event) {}, nil))
		applied <- err
	}()
	// The apply holds the lock once Consul has a session on the workspace's lock key.
	deadline := time.Now().Add(30 * time.Second)
	for !consulLockHeld(t, b, "local_slow") {
		if time.Now().After(deadline) {
			t.Fatal("the apply never took the lock")
		}
		time.Sleep(50 * time.Millisecond) // polling Consul, bounded by the deadline
	}
	got, err := waiter.Plan(testCtx(t), s)
	if err != nil {
		t.Fatalf("the waiting plan failed: %v", err)
	}
	if err := <-applied; err != nil {
		t.Fatalf("the holder's apply: %v", err)
	}
	if got.Status != executor.PlanNoChanges {
		t.Errorf("the waiting plan = %s (%v); want no changes, made after the holder's apply", got.Status, got.Changes)
	}
}

// consulLockHeld reports whether a session holds the workspace's lock key.
func consulLockHeld(t *testing.T, b *BackendConfig, workspace string) bool {
	t.Helper()
	body := consulKV(t, b.Config["address"], http.MethodGet, url.PathEscape(b.Config["path"]+"-env:"+workspace)+"/.lock")
	if body == nil {
		return false
	}
	var entries []struct{ Session string }
	if err := json.Unmarshal(body, &entries); err != nil {
		t.Fatalf("decoding the lock key %s: %v", body, err)
	}
	return len(entries) > 0 && entries[0].Session != ""
}
