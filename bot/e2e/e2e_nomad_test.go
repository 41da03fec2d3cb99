package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/nomad"
)

// End-to-end conversations on a real Nomad agent (scripts/testenv/nomad.sh, started by
// make test): the webapp test blueprint in testdata/blueprints runs on the raw_exec driver.
// Every test deploys into an environment of its own, so job IDs never collide between tests
// or runs (Nomad 1.4 does not place a purged job registered again under the same ID while
// the old job's failed deployment is still kept).

// nomadBot is a bot with the Nomad layer on the test agent, the raw API to look behind its
// back, and the environment (and so the webapp job) of one test.
type nomadBot struct {
	*eostest.Harness
	api *api.Client
	env string
	job string // webapp's job ID in env
}

func newNomadBot(t *testing.T) *nomadBot {
	t.Helper()
	addr := eostest.NomadAgent(t)
	layer, err := nomad.New(nomad.Config{Address: addr, DeployTimeout: 90 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	client, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	env := fmt.Sprintf("e2e%06x", rand.N(1<<24))
	b := &nomadBot{api: client, env: env, job: nomad.JobID("webapp", env)}
	b.Harness = eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, CatalogDirs: []string{"testdata/blueprints"}, Environments: []string{env}})
	t.Cleanup(func() { _, _, _ = client.Jobs().Deregister(b.job, true, nil) })
	return b
}

// run asks for text as alice, checks the preview has every one of want, has bob approve it
// and waits for the run's final post, which it returns with the plan id.
func (b *nomadBot) run(t *testing.T, text, end string, want ...string) (console.Post, string) {
	t.Helper()
	p, id := eostest.Preview(t, b.Harness, "alice", text)
	for _, w := range want {
		if !strings.Contains(p.Text, w) {
			t.Errorf("preview of %q lacks %q:\n%s", text, w, p.Text)
		}
	}
	b.React("bob", p.ID, "+1")
	return b.WaitText(p.ID, "Run "+id+" · "+end), id
}

// say posts text as alice and waits for the bot's answer containing every one of want.
func (b *nomadBot) say(text string, want ...string) console.Post {
	after := b.Last()
	b.Say("alice", text)
	return b.WaitText(after, want...)
}

// current is the job as Nomad runs it now, with its allocations of its current version by
// client status.
func (b *nomadBot) current(t *testing.T) (*api.Job, map[string]int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	q := (&api.QueryOptions{}).WithContext(ctx)
	job, _, err := b.api.Jobs().Info(b.job, q)
	if err != nil {
		t.Fatalf("reading job %s: %v", b.job, err)
	}
	stubs, _, err := b.api.Jobs().Allocations(b.job, false, q)
	if err != nil {
		t.Fatalf("reading the allocations of %s: %v", b.job, err)
	}
	allocs := map[string]int{}
	for _, a := range stubs {
		if a.JobVersion == *job.Version {
			allocs[a.ClientStatus]++
		}
	}
	return job, allocs
}

// A service's life through the bot on a real agent: created with the job diff in the preview
// and allocations followed until healthy, shown by status, scaled with the count change
// previewed, and a failing deployment reverted to the version that ran before.
func TestNomadLifecycleThroughTheBot(t *testing.T) {
	t.Parallel()
	b := newNomadBot(t)
	in := " in " + b.env

	done, id := b.run(t, "@eos create webapp"+in, "done in",
		"create webapp in "+b.env, "Nomad     | job "+b.job+": new, group web ×1", "Terraform | nothing to do")
	if !strings.Contains(done.Text, "Nomad ✅ "+b.job+" 1/1 healthy") || done.Edits == 0 {
		t.Errorf("run %s (edited %d times):\n%s", id, done.Edits, done.Text)
	}
	job, allocs := b.current(t)
	if *job.Version != 0 || allocs["running"] != 1 || job.Meta["env"] != b.env {
		t.Fatalf("after create: version %d, allocations %v, meta %v", *job.Version, allocs, job.Meta)
	}
	b.say("@eos status webapp"+in, "running now", "Nomad: "+b.job+" v0 running, 1/1 allocations healthy")

	done, _ = b.run(t, "@eos update webapp --count 2"+in, "done in", "Nomad     | job "+b.job+": group web count 1 → 2")
	if !strings.Contains(done.Text, "Nomad ✅ "+b.job+" 2/2 healthy") {
		t.Errorf("scale-up run:\n%s", done.Text)
	}
	if job, allocs = b.current(t); *job.Version != 1 || allocs["running"] != 2 {
		t.Fatalf("after the scale-up: version %d, allocations %v", *job.Version, allocs)
	}

	failed, fid := b.run(t, "@eos update webapp --fail"+in, "failed", "Nomad     | job "+b.job+": destructive update of group web")
	for _, w := range []string{"Nomad ❌", b.job, "Rolled back:", "reverted job " + b.job + " to version 1"} {
		if !strings.Contains(failed.Text, w) {
			t.Errorf("failed run post lacks %q:\n%s", w, failed.Text)
		}
	}
	job, allocs = b.current(t)
	if *job.Version != 3 || !*job.Stable || allocs["running"] != 2 || *job.TaskGroups[0].Count != 2 {
		t.Errorf("after the revert: version %d stable %v, allocations %v; want version 3 (a copy of 1), stable, 2 running",
			*job.Version, *job.Stable, allocs)
	}
	if args := fmt.Sprint(job.TaskGroups[0].Tasks[0].Config["args"]); strings.Contains(args, "exit 3") {
		t.Errorf("the reverted job still runs the failing command: %s", args)
	}
	if r, err := b.Store.Run(context.Background(), fid); err != nil || r.State != store.RunFailed {
		t.Errorf("failed run = %+v, %v", r, err)
	}
	d, err := b.Store.Declared(context.Background(), b.env+"/webapp")
	if err != nil || d.Spec.Units[0].Values["count"] != "2" || d.Spec.Units[0].Values["fail"] == "true" {
		t.Errorf("declared webapp after the failed update = %+v, %v; want the count-2 spec", d.Spec.Units, err)
	}
}

// A job stopped behind Eos's back is drift.
func TestNomadStoppedJobIsDrift(t *testing.T) {
	t.Parallel()
	b := newNomadBot(t)
	in := " in " + b.env
	b.run(t, "@eos create webapp"+in, "done in")
	b.say("@eos drift webapp"+in, "webapp in "+b.env+" matches its declared state")

	if _, _, err := b.api.Jobs().Deregister(b.job, false, nil); err != nil {
		t.Fatalf("stopping %s: %v", b.job, err)
	}
	got := b.say("@eos drift webapp"+in, "1 of 1 services drifted")
	if !strings.Contains(got.Text, "Nomad") || !strings.Contains(got.Text, b.job) {
		t.Errorf("drift report does not name the layer and the job:\n%s", got.Text)
	}
	// Stopping a job registers a new version of it, marked stopped.
	b.say("@eos status webapp"+in, "Nomad: "+b.job+" v1 stopped")
}

// A job changed between the preview and the approval is not overwritten: the engine plans
// again, applies nothing and asks for approval of the fresh plan.
func TestNomadJobChangedBeforeApprovalIsNotOverwritten(t *testing.T) {
	t.Parallel()
	b := newNomadBot(t)
	in := " in " + b.env
	b.run(t, "@eos create webapp"+in, "done in")

	up, uid := eostest.Preview(t, b.Harness, "alice", "@eos update webapp --count 2"+in)
	job, _ := b.current(t)
	job.Meta["changed_by"] = "someone else"
	if _, _, err := b.api.Jobs().Register(job, nil); err != nil {
		t.Fatalf("changing %s behind Eos's back: %v", b.job, err)
	}
	b.React("bob", up.ID, "+1")
	b.WaitText(up.ID, "Plan "+uid+" changed since it was approved", "nothing was applied", "needs approval again")
	fresh := b.WaitPost(up.ID, func(p console.Post) bool {
		return strings.Contains(p.Text, "update webapp --count 2 in "+b.env) && strings.Contains(p.Text, "React ✅ to approve") && !strings.Contains(p.Text, uid)
	})
	if !strings.Contains(fresh.Text, "count 1 → 2") {
		t.Errorf("the fresh plan does not show the count change:\n%s", fresh.Text)
	}
	b.Idle()
	job, _ = b.current(t)
	if *job.Version != 1 || *job.TaskGroups[0].Count != 1 || job.Meta["changed_by"] != "someone else" {
		t.Errorf("the job was overwritten: version %d, count %d, meta %v", *job.Version, *job.TaskGroups[0].Count, job.Meta)
	}
	if old, err := b.Store.Plan(context.Background(), uid); err != nil || old.State != store.PlanSuperseded {
		t.Errorf("old plan = %+v, %v; want superseded", old, err)
	}
	if _, err := b.Store.Run(context.Background(), uid); err == nil {
		t.Error("the superseded plan ran")
	}
}

// Eos runs as a Nomad job: deploy/eos-raw_exec.nomad.hcl, deployed through the Nomad layer
// with a freshly built eos, turns healthy by its own /healthz check, and answers it.
func TestEosRunsAsANomadJob(t *testing.T) {
	t.Parallel()
	addr := eostest.NomadAgent(t)
	bin := eosBinary(t)
	tmpl, err := os.ReadFile("../../deploy/eos-raw_exec.nomad.hcl")
	if err != nil {
		t.Fatal(err)
	}
	layer, err := nomad.New(nomad.Config{Address: addr, DeployTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	spec := executor.Spec{Verb: "create", Target: "eos", Env: fmt.Sprintf("e2e%06x", rand.N(1<<24)), Units: []executor.Unit{{
		Service: "eos", Nomad: &executor.NomadPart{Template: string(tmpl), Vars: map[string]any{
			"eos_binary": bin, "data_dir": t.TempDir(), "listen_port": port, "path": os.Getenv("PATH"),
		}},
	}}}
	client, err := api.NewClient(&api.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _, _ = client.Jobs().Deregister(nomad.JobID("eos", spec.Env), true, nil) })

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	plan, err := layer.Plan(ctx, spec)
	if err != nil || plan.Status != executor.PlanChanges {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	// The deployment turns healthy only once Nomad's check of /healthz passes.
	res, err := layer.Apply(ctx, spec, plan, nil)
	if err != nil || res.Status != executor.ResultOK {
		t.Fatalf("apply = %+v, %v", res, err)
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", port))
	if err != nil {
		t.Fatalf("GET /healthz: %v", err)
	}
	defer resp.Body.Close()
	var h struct {
		OK       bool              `json:"ok"`
		Store    string            `json:"store"`
		Adapters map[string]string `json:"adapters"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatalf("decoding /healthz: %v", err)
	}
	if resp.StatusCode != http.StatusOK || !h.OK || h.Store != "writable" || h.Adapters["console"] != "running" {
		t.Errorf("/healthz = %d %+v; want 200, ok, a writable store and the console running", resp.StatusCode, h)
	}
	line, err := layer.Status(ctx, spec)
	if err != nil || !strings.Contains(line, "v0 running, 1/1 allocations healthy") {
		t.Errorf("status = %q, %v", line, err)
	}
	// Nomad's own check of /healthz is what made the deployment healthy.
	q := (&api.QueryOptions{}).WithContext(ctx)
	stubs, _, err := client.Jobs().Allocations(nomad.JobID("eos", spec.Env), false, q)
	if err != nil || len(stubs) != 1 {
		t.Fatalf("allocations = %d, %v; want 1", len(stubs), err)
	}
	checks, err := client.Allocations().Checks(stubs[0].ID, q)
	if err != nil || len(checks) != 1 {
		t.Fatalf("checks = %+v, %v; want the healthz check", checks, err)
	}
	for _, c := range checks {
		if c.Check != "healthz" || c.Status != "success" || c.StatusCode != http.StatusOK {
			t.Errorf("check = %+v; want healthz passing with 200", c)
		}
	}

	// Stopped by Nomad, Eos itself gets the SIGTERM and exits cleanly.
	if _, _, err := client.Jobs().Deregister(nomad.JobID("eos", spec.Env), false, (&api.WriteOptions{}).WithContext(ctx)); err != nil {
		t.Fatalf("stopping the job: %v", err)
	}
	st := waitTaskDead(ctx, t, client, stubs[0].ID, "eos")
	var exit []string
	for _, e := range st.Events {
		if e.Type == api.TaskTerminated {
			exit = append(exit, e.DisplayMessage)
		}
	}
	if strings.Join(exit, "; ") != "Exit Code: 0" {
		t.Errorf("eos ended with %q; want one clean exit (Exit Code: 0)", exit)
	}
}

// waitTaskDead follows the allocation with blocking queries until task is dead.
func waitTaskDead(ctx context.Context, t *testing.T, client *api.Client, allocID, task string) *api.TaskState {
	t.Helper()
	var index uint64
	for {
		q := (&api.QueryOptions{WaitIndex: index, WaitTime: 10 * time.Second}).WithContext(ctx)
		a, meta, err := client.Allocations().Info(allocID, q)
		if err != nil {
			t.Fatalf("reading allocation %s: %v", allocID, err)
		}
		if st := a.TaskStates[task]; st != nil && st.State == "dead" {
			return st
		}
		index = meta.LastIndex
	}
}

// The production jobs (docker: replicas, and a single bbolt instance) are ones Nomad accepts:
// each parses, validates and plans on the test agent, which has no docker driver and says so.
func TestShippedEosJobIsAcceptedByNomad(t *testing.T) {
	t.Parallel()
	addr := eostest.NomadAgent(t)
	layer, err := nomad.New(nomad.Config{Address: addr})
	if err != nil {
		t.Fatal(err)
	}
	for file, group := range map[string]string{"eos.nomad.hcl": "new, group eos ×2", "eos-single.nomad.hcl": "new, group eos ×1"} {
		tmpl, err := os.ReadFile("../../deploy/" + file)
		if err != nil {
			t.Fatal(err)
		}
		spec := executor.Spec{Verb: "create", Target: "eos", Env: fmt.Sprintf("e2e%06x", rand.N(1<<24)), Units: []executor.Unit{{
			Service: "eos", Nomad: &executor.NomadPart{Template: string(tmpl), Vars: map[string]any{
				"mattermost_url": "https://chat.example.org", "mattermost_channels": "ops/infra",
			}},
		}}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		plan, err := layer.Plan(ctx, spec)
		cancel()
		if err != nil || plan.Status != executor.PlanChanges || !strings.Contains(plan.Summary, group) ||
			!strings.Contains(plan.Summary, "docker") {
			t.Errorf("%s: plan = %s %q, %v; want %q that cannot be placed for want of docker", file, plan.Status, plan.Summary, err, group)
		}
	}
}

// eosBinary builds the eos command into the test's temporary directory.
func eosBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "eos")
	build := exec.Command("go", "build", "-o", bin, "./cmd/eos")
	build.Dir = "../.."
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building eos: %v\n%s", err, out)
	}
	return bin
}

// freePort is a loopback TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
