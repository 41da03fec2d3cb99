package enginetest_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// terraformBehindEos runs terraform by hand in a unit's working directory, as an operator
// would behind Eos's back: same CLI configuration, same simulated cloud.
func terraformBehindEos(t *testing.T, h *eostest.Harness, env, service string, args ...string) {
	t.Helper()
	cmd := exec.Command("terraform", args...)
	cmd.Dir = filepath.Join(h.DataDir, "terraform", env, service)
	cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(h.DataDir, "terraform.rc"),
		"EOSLAB_ROOT="+h.Cloud(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// Each way reality can walk away from the declared state is reported as drift, naming the
// resource; a check that cannot run is reported unknown, never clean.
func TestDriftReportsEachKind(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// change is done behind Eos's back after grafana is deployed.
		change func(t *testing.T, h *eostest.Harness)
		want   []string
	}{
		{
			name: "server deleted in the cloud",
			change: func(t *testing.T, h *eostest.Harness) {
				remove(t, filepath.Join(h.Cloud(), "server", "proxy-grafana-local.json"))
			},
			want: []string{"1 of 1 services drifted", "eoslab_server.main deleted outside Terraform"},
		},
		{
			name: "firewall removed from the state",
			change: func(t *testing.T, h *eostest.Harness) {
				terraformBehindEos(t, h, "local", "grafana", "state", "rm", "eoslab_firewall.main")
			},
			want: []string{"1 of 1 services drifted", "eoslab_firewall.main declared but missing"},
		},
		{
			name: "applied by hand with other inputs",
			change: func(t *testing.T, h *eostest.Harness) {
				terraformBehindEos(t, h, "local", "grafana", "apply", "-auto-approve", "-var-file=eos.tfvars.json", "-var", "server_size=large")
			},
			want: []string{"1 of 1 services drifted", "eoslab_server.main", `"large"`, "to match the declaration"},
		},
		{
			name: "state file corrupted",
			change: func(t *testing.T, h *eostest.Harness) {
				path := filepath.Join(h.DataDir, "terraform", "local", "grafana", "terraform.tfstate")
				if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
					t.Fatal(err)
				}
			},
			want: []string{"0 of 1 services drifted · 1 unknown", "unknown: Terraform check failed", "Unsupported state file format", "(not counted as clean)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := eostest.New(t, eostest.Options{})
			eostest.Deploy(t, h, "grafana")
			after := h.Last()
			h.Say("alice", "@eos drift grafana")
			h.WaitText(after, "grafana in local matches its declared state")

			tc.change(t, h)
			after = h.Last()
			h.Say("alice", "@eos drift grafana")
			got := h.WaitText(after, "Drift · ")
			for _, want := range tc.want {
				if !strings.Contains(got.Text, want) {
					t.Errorf("drift report lacks %q:\n%s", want, got.Text)
				}
			}
			if strings.Contains(got.Text, "match their declared state") {
				t.Errorf("reported clean:\n%s", got.Text)
			}
			hist, err := h.Store.DriftHistory(context.Background(), "local/grafana", 0)
			if err != nil || len(hist) != 2 || hist[1].Status == "clean" {
				t.Errorf("drift history = %+v, %v; want a second check that is not clean", hist, err)
			}
		})
	}
}

func remove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// wrenchPolicy lets alice and bob ask for changes in local, not carol.
var wrenchPolicy = bot.Policy{Envs: map[string]bot.EnvPolicy{
	"local": {Requesters: []string{"alice", "bob"}, Approvals: 1, SelfApproval: true, TTL: 30 * time.Minute},
}}

// twoDrifted is a harness with a daily 08:00 digest and wrenchPolicy, its schedule started at
// 07:59 on Monday 23 November, grafana and jenkins deployed and both servers resized by hand
// since.
func twoDrifted(t *testing.T) (*eostest.Harness, *eostest.Clock) {
	t.Helper()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{Clock: clock, Policy: wrenchPolicy, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *", Parallelism: 2, CheckTimeout: time.Minute},
	}})
	eostest.Deploy(t, h, "grafana")
	eostest.Deploy(t, h, "jenkins")
	h.Engine.RunDueDigests(context.Background()) // the first call starts the schedule
	resizeServer(t, h, "proxy-grafana-local", "xlarge")
	resizeServer(t, h, "proxy-jenkins-local", "large")
	return h, clock
}

// A 🔧 on a digest's reply about a service plans that service's reconcile, asked by the person
// who reacted, in the digest's thread: once however often the 🔧 is delivered, never for
// someone who may not ask, and on the headline only when it lists a single service.
func TestWrenchOnDigestPlansReconcile(t *testing.T) {
	t.Parallel()
	h, clock := twoDrifted(t)
	ctx := context.Background()

	clock.Advance(90 * time.Second)
	after := h.Last()
	if n := h.Engine.RunDueDigests(ctx); n != 1 {
		t.Fatalf("%d digests ran at 08:00:30, want 1", n)
	}
	head := h.WaitText(after, "2 new since the last digest", "on a service's reply in the thread")
	grafana := h.WaitPost(head.ID, func(p console.Post) bool {
		return p.Thread == head.ID && strings.HasPrefix(p.Text, "grafana (local) · Terraform: 1 change")
	})
	jenkins := h.WaitPost(head.ID, func(p console.Post) bool {
		return p.Thread == head.ID && strings.HasPrefix(p.Text, "jenkins (local) · Terraform: 1 change")
	})
	for reply, want := range map[*console.Post]string{&grafana: "xlarge", &jenkins: "large"} {
		if !strings.Contains(reply.Text, "eoslab_server.main size") || !strings.Contains(reply.Text, want) {
			t.Errorf("the reply does not name what changed:\n%s", reply.Text)
		}
	}

	after = h.Last()
	h.React("alice", head.ID, "🔧") // two services: which one?
	h.React("alice", head.ID, "🔧")
	h.React("carol", grafana.ID, "🔧") // not a requester
	h.React("carol", grafana.ID, "🔧")
	h.Say("alice", "@eos drift history grafana in local") // as the reply suggests
	h.WaitText(after, "Drift history of local/grafana")
	h.Idle() // every reaction above is handled

	// alice's 🔧 delivered three times at once and once more a second later (a reconnecting
	// adapter replays it), then bob's while her plan waits.
	wrench := func(user string) adapters.Reaction {
		return adapters.Reaction{User: adapters.User{ID: user, Name: user}, Emoji: "wrench", At: clock.Now(),
			Post: h.Console.Ref(grafana)}
	}
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); h.Engine.HandleReaction(ctx, h.Console, wrench("alice")) }()
	}
	wg.Wait()
	clock.Advance(time.Second)
	h.Engine.HandleReaction(ctx, h.Console, wrench("alice"))
	clock.Advance(time.Second)
	h.Engine.HandleReaction(ctx, h.Console, wrench("bob"))
	h.Idle()

	count := func(s string) int {
		n := 0
		for _, p := range h.Console.Posts() {
			if p.ID > after && p.Author == "eos" && strings.Contains(p.Text, s) {
				n++
			}
		}
		return n
	}
	for text, want := range map[string]int{
		"This digest lists 2 services (grafana in local, jenkins in local): react 🔧, 📥 or 🔕 on the service's own reply": 1,
		"@carol can't ask for changes in local (requesters: @alice, @bob). Nothing changed.":                            1,
		"reconcile grafana in local · asked by @alice":                                                                  1,
		"is already waiting in this thread: approve or reject it there":                                                 1,
	} {
		if got := count(text); got != want {
			t.Errorf("%d posts say %q, want %d", got, text, want)
		}
	}
	plans, err := h.Store.Plans(ctx, func(p *store.Plan) bool { return p.Plan.Spec.Verb == "reconcile" })
	if err != nil || len(plans) != 1 {
		t.Fatalf("reconcile plans = %d (%v), want 1", len(plans), err)
	}
	p := plans[0]
	if p.Requester.Name != "alice" || p.Plan.Spec.Target != "grafana" || p.Preview.Thread != h.Console.Ref(head).ID {
		t.Errorf("plan %s asked by %s for %s, preview %+v; want alice, grafana, in thread %d", p.ID, p.Requester.Name, p.Plan.Spec.Target, p.Preview, head.ID)
	}

	// The plan is approved like any other; the next digest lists jenkins alone, and a 🔧 on
	// its headline plans jenkins's reconcile.
	prev := h.WaitText(after, "Plan "+p.ID)
	if !strings.Contains(prev.Text, "Terraform | +0 ~1 −0") {
		t.Errorf("reconcile preview:\n%s", prev.Text)
	}
	h.React("bob", prev.ID, "+1")
	h.WaitText(prev.ID, "Run "+p.ID+" · done in")
	clock.Advance(24 * time.Hour)
	after = h.Last()
	h.Engine.RunDueDigests(ctx)
	head = h.WaitText(after, "0 new since the last digest · 1 resolved · 1 still drifted, the oldest for 1 day", "on this post · or @eos reconcile jenkins in local")
	h.React("bob", head.ID, "🔧")
	got := h.WaitText(head.ID, "reconcile jenkins in local · asked by @bob")
	if got.Thread != head.ID {
		t.Errorf("jenkins's preview is in thread %d, want the digest's %d", got.Thread, head.ID)
	}
}
