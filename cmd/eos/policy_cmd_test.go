package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

const examplePolicies = "../../examples/policies"

// eos runs the command line in this process and returns what it printed and its error.
func eos(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out strings.Builder
	root := rootCmd()
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&out)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// The example library's Rego unit tests run in make test, through eos policy test: every
// example's tests are found, each is listed with its outcome, and all pass.
func TestPolicyTestRunsTheExampleLibrary(t *testing.T) {
	out, err := eos(t, "policy", "test", examplePolicies)
	if err != nil {
		t.Fatalf("eos policy test %s: %v\n%s", examplePolicies, err, out)
	}
	for _, want := range []string{"public_ssh_test.rego", "nomad_images_test.rego", "memory_owner_test.rego", "change_window_test.rego",
		"salt_restart_test.rego", "data.eos.public_ssh_test.test_ssh_to_the_world_in_production_is_denied: PASS", "PASS: "} {
		if !strings.Contains(out, want) {
			t.Errorf("eos policy test does not print %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAIL") || strings.Contains(out, "ERROR") {
		t.Errorf("an example's test failed:\n%s", out)
	}
}

// A failing Rego test fails eos policy test (exit 1) and is named with FAIL; a folder without
// tests is an error, not a pass.
func TestPolicyTestFailsOnAFailingTest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("size.rego", "package eos.size\n\ndeny contains \"too big\" if input.size > 10\n")
	write("size_test.rego", "package eos.size_test\n\ntest_big_is_denied if count(data.eos.size.deny) == 1 with input as {\"size\": 11}\n\n"+
		"test_small_is_denied if count(data.eos.size.deny) == 1 with input as {\"size\": 1}\n")
	out, err := eos(t, "policy", "test", dir)
	if !errors.As(err, new(exitError)) {
		t.Fatalf("a failing test: err = %v, want exit 1\n%s", err, out)
	}
	if !strings.Contains(out, "data.eos.size_test.test_small_is_denied: FAIL") || !strings.Contains(out, "data.eos.size_test.test_big_is_denied: PASS") {
		t.Errorf("each test's outcome should be listed:\n%s", out)
	}

	empty := t.TempDir()
	write2 := filepath.Join(empty, "p.rego")
	os.WriteFile(write2, []byte("package eos.p\n\nwarn contains \"x\" if false\n"), 0o644)
	if out, err := eos(t, "policy", "test", empty); err == nil || !strings.Contains(err.Error(), "no Rego tests") {
		t.Errorf("a folder without tests: %v, want an error saying so\n%s", err, out)
	}
}

// sshInput is an input document of a production plan whose firewall opens SSH to the world,
// as kept before Terraform changes carried their values as data (only the attribute lines):
// replay upgrades it, and the examples decide on it as on a document built now.
func sshInput(id string) json.RawMessage {
	return json.RawMessage(`{"request":{"verb":"create","target":"bastion","environment":"production"},
		"plan":{"id":"` + id + `","layers":{"terraform":{"changes":[{"unit":"bastion","address":"eoslab_firewall.main","action":"create","detail":"",
		"attrs":["rules = [{\"direction\":\"in\",\"port\":\"22\",\"protocol\":\"tcp\",\"source_ips\":[\"0.0.0.0/0\"]}]"]}]}}},
		"risk":{"data_loss":false},"time":{"weekday":"Monday","hour":10,"minute":0,"zone":"UTC"}}`)
}

// seedReplay keeps four plans' input documents in the store at dataDir: one older than the
// replay window, one no policy judged, one the policy in force already denied as the candidate
// would, and one the policy in force warned about for a reason the candidate no longer has.
func seedReplay(t *testing.T, st *store.Store, now time.Time) {
	t.Helper()
	set, err := rego.Load(context.Background(), []string{examplePolicies}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	json.Unmarshal(sshInput("x"), &doc)
	bot.UpgradeKeptPolicyInput(doc) // what the engine judged: the document as built then had the values
	var inForce []store.PolicyDecision
	for _, d := range set.Judge(context.Background(), doc) {
		inForce = append(inForce, store.PolicyDecision{Kind: d.Kind, Msg: d.Msg, Rule: d.Rule})
	}
	if len(inForce) != 1 {
		t.Fatalf("the examples judge the SSH plan %+v, want one deny", inForce)
	}
	for _, in := range []*store.PolicyInput{
		{PlanID: "old00001", At: now.Add(-40 * 24 * time.Hour), Input: sshInput("old00001")},
		{PlanID: "new00002", At: now.Add(-2 * time.Hour), Input: sshInput("new00002")},
		{PlanID: "same0003", At: now.Add(-time.Hour), Input: sshInput("same0003"), PolicySHA: set.SHA256(), Decisions: inForce},
		{PlanID: "loose004", At: now.Add(-time.Minute), Input: json.RawMessage(`{"request":{"verb":"update","target":"grafana","environment":"staging"}}`),
			PolicySHA: "0123456789abcdef", Decisions: []store.PolicyDecision{{Kind: "warn", Msg: "grafana changes on a Monday", Rule: "eos.old.warn"}}},
	} {
		if err := st.KeepPolicyInput(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	}
}

// eos policy replay judges the plans kept in the window with the candidate set and prints, plan
// by plan, what it would decide that the policy in force did not (and what it no longer
// would), the same whether it opens the store itself or asks the Eos holding it on its socket.
func TestPolicyReplayPrintsWhatTheCandidateDecidesOtherwise(t *testing.T) {
	for _, via := range []string{"store", "socket"} {
		t.Run(via, func(t *testing.T) {
			data := t.TempDir()
			t.Setenv("EOS_DATA_DIR", data)
			t.Setenv("EOS_CONFIG", "")
			st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			seedReplay(t, st, time.Now())
			if via == "store" {
				st.Close()
			} else {
				defer st.Close()
				serveReplaySocket(t, filepath.Join(data, "eos.sock"), st)
			}
			out, err := eos(t, "policy", "replay", examplePolicies, "--since", "30d")
			if err != nil {
				t.Fatalf("eos policy replay: %v\n%s", err, out)
			}
			for _, want := range []string{
				"Plan new00002 · create bastion in production · ",
				"(no policy was in force)\n  ⛔ would deny: bastion: eoslab_firewall.main opens SSH (port 22) to 0.0.0.0/0 in production: allow only your admin network (or a VPN) on port 22 (eos.public_ssh.deny, public_ssh.rego:",
				"Plan loose004 · update grafana in staging · ",
				"(policy in force 0123456789ab)\n  ✅ would no longer warn: grafana changes on a Monday (eos.old.warn)",
				"Replayed 3 plans kept since ",
				": 2 judged otherwise (1 deny, 0 holds, 0 warnings the policy in force did not make; 1 decision it made dropped), 1 the same.",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the replay lacks %q:\n%s", want, out)
				}
			}
			for _, not := range []string{"old00001", "same0003"} {
				if strings.Contains(out, not) {
					t.Errorf("the replay names %s (outside the window, or judged the same):\n%s", not, out)
				}
			}
		})
	}
}

// serveReplaySocket answers the tools' socket as a running Eos does, with the endpoints eos
// policy replay uses, on st, which this process holds.
func serveReplaySocket(t *testing.T, path string, st *store.Store) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/ping", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, map[string]int{"pid": os.Getpid()}) })
	mux.HandleFunc("GET /v1/policy-inputs", servePolicyInputs(st))
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
}
