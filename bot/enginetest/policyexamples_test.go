package enginetest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// The example policies (examples/policies) judged over the input documents the engine keeps
// for real plans: eoslab Terraform, the Nomad test agent's job plan, the Salt test master's
// test mode. Each test asks for plans in chat, reads the document kept for each plan and
// checks what the library decides on it.

// examples is the example library, loaded as Eos loads policy_dirs.
func examples(t *testing.T) *rego.Set {
	t.Helper()
	set, err := rego.Load(context.Background(), []string{filepath.Join("..", "..", "examples", "policies")}, 0)
	if err != nil || set == nil {
		t.Fatalf("loading examples/policies: %v", err)
	}
	return set
}

// keptInput is the input document kept for plan id.
func keptInput(t *testing.T, h *eostest.Harness, id string) map[string]any {
	t.Helper()
	var doc map[string]any
	err := h.Store.EachPolicyInput(context.Background(), time.Time{}, func(in *store.PolicyInput) error {
		if in.PlanID == id {
			return json.Unmarshal(in.Input, &doc)
		}
		return nil
	})
	if err != nil || doc == nil {
		t.Fatalf("plan %s's input document: %v (kept: %v)", id, err, doc != nil)
	}
	return doc
}

// decisions are what set decides on doc, one "kind rule: message" a line. The same document
// converted for OPA by OPA itself (ast.InterfaceToValue) must be judged the same: the set's
// own converter (rego/convert.go) is there to be cheaper, never to decide otherwise; when it
// is not, a last line says so, and the test's wanted lines no longer match.
func decisions(set *rego.Set, doc map[string]any) []string {
	out := decisionLines(set.Judge(context.Background(), doc))
	v, err := ast.InterfaceToValue(doc)
	if err != nil {
		return append(out, "OPA cannot convert the document: "+err.Error())
	}
	if byOPA := decisionLines(set.Judge(context.Background(), v)); !slices.Equal(out, byOPA) {
		out = append(out, "converted by OPA itself, the document is judged differently:\n"+strings.Join(byOPA, "\n"))
	}
	return out
}

func decisionLines(ds []rego.Decision) []string {
	var out []string
	for _, d := range ds {
		line := d.Kind + " " + d.Rule + ": " + d.Msg
		if d.Kind == rego.Require {
			line += fmt.Sprintf(" [%s ×%d]", strings.Join(d.Approvers, " "), d.Approvals)
		}
		out = append(out, line)
	}
	return out
}

func wantDecisions(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s: the examples decide\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// at sets the document's time, as the engine would have at another moment (UTC).
func at(doc map[string]any, weekday string, hour int) map[string]any {
	out := map[string]any{}
	for k, v := range doc {
		out[k] = v
	}
	out["time"] = map[string]any{"weekday": weekday, "hour": hour, "minute": 0, "zone": "UTC"}
	return out
}

// planned asks for text as alice and returns the plan's id, approvable or blocked.
func planned(t *testing.T, h *eostest.Harness, text string) string {
	t.Helper()
	after := h.Last()
	h.Say("alice", text)
	asked := strings.TrimPrefix(text, "@eos ")
	p := h.WaitPost(after, func(p console.Post) bool {
		return p.Author == "eos" && strings.HasPrefix(p.Text, "Plan ") && strings.Contains(p.Text, " · "+asked)
	})
	return eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
}

// cancel cancels plan id and waits until it is.
func cancel(h *eostest.Harness, id string) {
	after := h.Last()
	h.Say("alice", "@eos cancel "+id)
	h.WaitText(after, "Plan "+id+" cancelled")
}

// On eoslab Terraform: a production firewall that opens SSH to the world is denied, one open
// to an admin network or in staging is not; destroying a volume that holds data on a Monday
// morning needs group:sre, and in the change window nobody more.
func TestExamplePoliciesOnRealTerraformPlans(t *testing.T) {
	t.Parallel()
	set := examples(t)
	clock := eostest.NewClock(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)) // a Monday
	h := eostest.New(t, eostest.Options{Clock: clock, CatalogDirs: []string{filepath.Join("testdata", "policyexamples")},
		Environments: []string{"production", "staging"}})

	open := planned(t, h, "@eos create bastion in production")
	wantDecisions(t, "SSH open to the world in production", decisions(set, keptInput(t, h, open)),
		"deny eos.public_ssh.deny: bastion: eoslab_firewall.main opens SSH (port 22) to 0.0.0.0/0 in production: allow only your admin network (or a VPN) on port 22")
	cancel(h, open)
	narrow := planned(t, h, "@eos create bastion --ssh-from 10.8.0.0/16 in production")
	wantDecisions(t, "SSH open to an admin network", decisions(set, keptInput(t, h, narrow)))
	cancel(h, narrow)
	staging := planned(t, h, "@eos create bastion in staging")
	wantDecisions(t, "SSH open to the world in staging", decisions(set, keptInput(t, h, staging)))
	cancel(h, staging)

	eostest.Deploy(t, h, "nextcloud --storage 200G")
	destroy := planned(t, h, "@eos destroy nextcloud")
	doc := keptInput(t, h, destroy)
	wantDecisions(t, "data loss on Monday morning", decisions(set, doc),
		"require eos.change_window.require: nextcloud in local loses data (nextcloud eoslab_volume.data) outside the change window (Tuesday and Thursday 18:00–21:00 UTC): someone from group:sre must approve too [group:sre ×1]")
	wantDecisions(t, "data loss in the change window", decisions(set, at(doc, "Thursday", 19)))
}

// On the Nomad test agent's job plan: an update to nginx:latest with 9000 MiB is denied for
// the image and held for the capacity owner; a pinned image within the limit is neither.
func TestExamplePoliciesOnARealNomadJobPlan(t *testing.T) {
	addr := eostest.NomadAgent(t)
	set := examples(t)
	layer, err := nomad.New(nomad.Config{Address: addr, DeployTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("pol%06x", rand.N(1<<24))
	id := nomad.JobID("imgapp", env)
	// An earlier version, registered as Eos registers its jobs, so that the plan is an update
	// whose diff names the image and the memory (the agent has no container engine to run it).
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	job := &api.Job{ID: str(id), Name: str(id), Type: str("service"), Datacenters: []string{"dc1"},
		Meta: map[string]string{nomad.MetaService: "imgapp", nomad.MetaEnv: env, "env": env},
		TaskGroups: []*api.TaskGroup{{Name: str("web"), Count: num(1), Tasks: []*api.Task{{Name: "server", Driver: "docker",
			Config: map[string]any{"image": "nginx:1.25"}, Resources: &api.Resources{CPU: num(20), MemoryMB: num(256)}}}}}}
	if _, _, err := client.Jobs().Register(job, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = client.Jobs().Deregister(id, true, nil) })
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, CatalogDirs: []string{filepath.Join("testdata", "policyexamples")},
		Environments: []string{env, env + "n"}})

	loose := planned(t, h, "@eos create imgapp --image nginx:latest --memory 9000 in "+env)
	looseDoc := keptInput(t, h, loose)
	layerGolden(t, "policy_input_nomad", looseDoc, "nomad", strings.NewReplacer(env, "production"))
	wantDecisions(t, "nginx:latest with 9000 MiB", decisions(set, looseDoc),
		"deny eos.nomad_images.deny: "+id+"/web: task server would run nginx:latest, which is not pinned: name a version tag (nginx:1.2.3) or a digest, never latest",
		"require eos.memory_owner.require: "+id+"/web: task server would get 9000 MiB of memory (MemoryMB), more than 8192 MiB: @carol, who owns capacity, must approve too [@carol ×1]")
	pinned := planned(t, h, "@eos create imgapp --image nginx:1.27.3 --memory 512 in "+env)
	wantDecisions(t, "nginx:1.27.3 with 512 MiB", decisions(set, keptInput(t, h, pinned)))
	// A job Nomad has never seen is judged the same: its plan lists every setting of its new
	// tasks, so a create cannot slip past a rule written against an update's diff.
	fresh := nomad.JobID("imgapp", env+"n")
	created := planned(t, h, "@eos create imgapp --image nginx:latest --memory 9000 in "+env+"n")
	wantDecisions(t, "a new job with nginx:latest and 9000 MiB", decisions(set, keptInput(t, h, created)),
		"deny eos.nomad_images.deny: "+fresh+"/web: task server would run nginx:latest, which is not pinned: name a version tag (nginx:1.2.3) or a digest, never latest",
		"require eos.memory_owner.require: "+fresh+"/web: task server would get 9000 MiB of memory (MemoryMB), more than 8192 MiB: @carol, who owns capacity, must approve too [@carol ×1]")
}

// On the Salt test master's test mode: a configuration change that restarts a service in
// production on a Wednesday morning warns; the same plan after hours does not.
func TestExamplePoliciesOnARealSaltPlan(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	set := examples(t)
	root := filepath.Join(data, "srv", "webcfg")
	conf := filepath.Join(root, "webcfg.conf")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.WriteFile(conf, []byte("port=8080\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clock := eostest.NewClock(time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)) // a Wednesday
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, Clock: clock, CatalogDirs: []string{filepath.Join("..", "testdata", "saltrisk")},
		Environments: []string{"production"}})

	id := planned(t, h, "@eos create webcfg --port 9090 in production")
	doc := keptInput(t, h, id)
	wantDecisions(t, "a restart on Wednesday morning", decisions(set, doc),
		"warn eos.salt_restart.warn: "+minion+": service.running webcfg-service (eos-demo-webcfg): service eos-demo-webcfg would restart (watch: file "+conf+"), during business hours (Wednesday 10:00 UTC)") // conf's directory is the minion's eos_data_dir, which the minion says: shown whole (executor/salt/datadir.go)
	wantDecisions(t, "a restart after hours", decisions(set, at(doc, "Wednesday", 18)))
	layerGolden(t, "policy_input_salt", doc, "salt", strings.NewReplacer(data, "/srv/eos", minion, "eos-minion"))
}

// layerGolden keeps the changes of one layer of doc in testdata/NAME.golden (the README's
// example of that layer's fields), with what differs between machines replaced by r.
func layerGolden(t *testing.T, name string, doc map[string]any, layer string, r *strings.Replacer) {
	t.Helper()
	changes := doc["plan"].(map[string]any)["layers"].(map[string]any)[layer].(map[string]any)["changes"]
	var raw strings.Builder
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false) // "<secret masked>" reads as itself
	enc.SetIndent("", "  ")
	if err := enc.Encode(changes); err != nil {
		t.Fatal(err)
	}
	goldenText(t, name, r.Replace(strings.TrimSuffix(raw.String(), "\n")))
}
