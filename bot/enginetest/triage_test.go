package enginetest_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// dailyDigest is a harness with a daily 08:00 digest and wrenchPolicy, its schedule started
// at 07:59 on Monday 23 November, and grafana deployed.
func dailyDigest(t *testing.T) (*eostest.Harness, *eostest.Clock) {
	t.Helper()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{Clock: clock, Policy: wrenchPolicy, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *", Parallelism: 2, CheckTimeout: time.Minute},
	}})
	eostest.Deploy(t, h, "grafana")
	h.Engine.RunDueDigests(context.Background()) // the first call starts the schedule
	return h, clock
}

// nextDigest advances the clock by d, runs the digest and returns its headline, which has
// every one of want.
func nextDigest(t *testing.T, h *eostest.Harness, clock *eostest.Clock, d time.Duration, want ...string) console.Post {
	t.Helper()
	clock.Advance(d)
	after := h.Last()
	if n := h.Engine.RunDueDigests(context.Background()); n != 1 {
		t.Fatalf("%d digests ran, want 1", n)
	}
	return h.WaitText(after, append([]string{"Drift · "}, want...)...)
}

// serviceReply waits for service's reply in the thread of head.
func serviceReply(h *eostest.Harness, head console.Post, service string) console.Post {
	return h.WaitPost(head.ID, func(p console.Post) bool {
		return p.Thread == head.ID && strings.HasPrefix(p.Text, service+" (local) · ")
	})
}

// serverSize reads a server's size in the simulated cloud.
func serverSize(t *testing.T, h *eostest.Harness, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(h.Cloud(), "server", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	s, _ := obj["size"].(string)
	return s
}

// A 📥 on a digest's reply plans adopting what runs: a preview like any other, approved by
// someone else; its run leaves the cloud as it is and declares it, so the edit made by hand is
// no longer drift, and the next digest reports it resolved.
func TestAdoptOnDigestDeclaresWhatRuns(t *testing.T) {
	t.Parallel()
	h, clock := dailyDigest(t)
	resizeServer(t, h, "proxy-grafana-local", "xlarge")
	head := nextDigest(t, h, clock, 90*time.Second, "1 new since the last digest", "📥 to adopt what runs as declared")
	reply := serviceReply(h, head, "grafana")

	after := h.Last()
	h.React("alice", reply.ID, "📥")
	p := h.WaitText(after, "adopt grafana in local · asked by @alice", "React ✅ to approve")
	for _, want := range []string{"Terraform | the state takes in +0 ~1 −0: eoslab_server.main; nothing changes in the cloud"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("adopt preview lacks %q:\n%s", want, p.Text)
		}
	}
	if p.Thread != head.ID {
		t.Errorf("the adopt preview is in thread %d, want the digest's %d", p.Thread, head.ID)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
	plan, err := h.Store.Plan(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if ch := plan.Plan.Layers[1].Changes; len(ch) != 1 || !strings.Contains(ch[0].Detail, `size "small" → "xlarge", adopted as declared`) {
		t.Errorf("adopt plan's Terraform changes = %+v, want the size adopted", ch)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in", "Terraform ✅ state took in 1 change")

	if got := serverSize(t, h, "proxy-grafana-local"); got != "xlarge" {
		t.Errorf("the server is %q after the adopt, want it left xlarge", got)
	}
	d, err := h.Store.Declared(context.Background(), "local/grafana")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Spec.Units[0].Terraform.Vars["server_size"]; got != "xlarge" {
		t.Errorf("declared server_size = %v, want xlarge", got)
	}
	clock.Advance(time.Minute)
	after = h.Last()
	h.Say("alice", "@eos drift grafana")
	h.WaitText(after, "grafana in local matches its declared state")
	nextDigest(t, h, clock, 24*time.Hour, "matches its declared state. 1 resolved since the last digest.")

	// A reconcile afterwards has nothing to do, so it plans nothing and asks no one to
	// approve: the declared state is what runs.
	after = h.Last()
	h.Say("alice", "@eos reconcile grafana")
	h.WaitText(after, "grafana in local already matches its declared state: Terraform has nothing to change, so there is nothing to reconcile and nothing is planned.")
	after = h.Last()
	h.Say("alice", "@eos adopt grafana")
	h.WaitText(after, "grafana in local already matches its declared state: Terraform has nothing to change, so there is nothing to adopt and nothing is planned.")
	if ps, err := h.Store.OpenPlans(context.Background(), func(*store.Plan) bool { return true }); err != nil || len(ps) != 0 {
		t.Errorf("open plans after a reconcile and an adopt of nothing: %d (%v), want none", len(ps), err)
	}
}

// Drift that cannot be declared (a server deleted by hand: declaring it would mean forgetting
// it) is not adopted: the 📥 is answered with why and what to do instead, and no plan is made.
func TestAdoptRefusesDriftItCannotDeclare(t *testing.T) {
	t.Parallel()
	h, clock := dailyDigest(t)
	remove(t, filepath.Join(h.Cloud(), "server", "proxy-grafana-local.json"))
	head := nextDigest(t, h, clock, 90*time.Second, "1 new since the last digest")
	reply := serviceReply(h, head, "grafana")
	after := h.Last()
	h.React("alice", reply.ID, "📥")
	got := h.WaitText(after, "Can't adopt grafana in local as it runs", "eoslab_server.main", "reconcile instead", "Nothing planned.")
	if strings.Contains(got.Text, "React ✅") {
		t.Errorf("a refused adopt asks for approval:\n%s", got.Text)
	}
	h.Idle()
	plans, err := h.Store.Plans(context.Background(), func(p *store.Plan) bool { return p.Plan.Spec.Verb == "adopt" })
	if err != nil || len(plans) != 0 {
		t.Errorf("%d adopt plans (%v), want none", len(plans), err)
	}
	// The claim was released: a 🔧 on the same reply plans the fix.
	after = h.Last()
	h.React("alice", reply.ID, "🔧")
	h.WaitText(after, "reconcile grafana in local · asked by @alice", "eoslab_server.main")
}

// A 🔕 keeps a service out of the next digest's list of drift to act on (listed as snoozed,
// no reply of its own) while its drift stays the same, and brings it back as new when its drift
// changes; drift snoozed lists it meanwhile. A 🔧 on a `drift` answer plans the fix.
func TestSnoozeUntilDriftChanges(t *testing.T) {
	t.Parallel()
	h, clock := dailyDigest(t)
	eostest.Deploy(t, h, "jenkins")
	resizeServer(t, h, "proxy-grafana-local", "xlarge")
	resizeServer(t, h, "proxy-jenkins-local", "large")
	head := nextDigest(t, h, clock, 90*time.Second, "2 new since the last digest")
	grafana := serviceReply(h, head, "grafana")

	after := h.Last()
	h.React("bob", grafana.ID, "🔕")
	h.React("bob", grafana.ID, "🔕") // delivered again
	h.WaitText(after, "Snoozed by @bob until Mon 30 Nov", "grafana in local leaves the digest's list")
	h.React("carol", grafana.ID, "🔕") // not a requester
	h.WaitText(after, "@carol can't ask for changes in local")
	h.Idle()
	snoozed := 0
	for _, p := range h.Console.Posts() {
		if p.ID > after && strings.Contains(p.Text, "Snoozed by") {
			snoozed++
		}
	}
	if snoozed != 1 {
		t.Errorf("%d posts say the service is snoozed, want 1", snoozed)
	}
	after = h.Last()
	h.Say("alice", "@eos drift snoozed")
	list := h.WaitText(after, "Snoozed drift · 1 service", "grafana", "@bob", "Mon 30 Nov")
	if strings.Contains(list.Text, "jenkins") {
		t.Errorf("jenkins is listed as snoozed:\n%s", list.Text)
	}

	head = nextDigest(t, h, clock, 24*time.Hour, "0 new since the last digest · 0 resolved · 2 still drifted, the oldest for 1 day (1 snoozed)",
		"grafana (local) · Terraform: 1 change · snoozed by @bob until Mon 30 Nov", "jenkins (local) · Terraform: 1 change · drifted since Mon 23 Nov")
	serviceReply(h, head, "jenkins")
	h.Idle()
	for _, p := range h.Console.Posts() {
		if p.Thread == head.ID && strings.HasPrefix(p.Text, "grafana") {
			t.Errorf("the snoozed service has a reply in the digest's thread:\n%s", p.Text)
		}
	}

	// grafana's drift changes: the snooze no longer holds.
	resizeServer(t, h, "proxy-grafana-local", "large")
	head = nextDigest(t, h, clock, 24*time.Hour, "1 new since the last digest", "grafana (local) · Terraform: 1 change · new")
	serviceReply(h, head, "grafana")
	after = h.Last()
	h.Say("alice", "@eos drift snoozed")
	h.WaitText(after, "Nothing is snoozed")

	// 🔧 on a drift answer about one service plans its fix.
	after = h.Last()
	h.Say("alice", "@eos drift jenkins")
	answer := h.WaitText(after, "1 of 1 services drifted", "on this post")
	after = h.Last()
	h.React("bob", answer.ID, "🔧")
	h.WaitText(after, "reconcile jenkins in local · asked by @bob", "Terraform | +0 ~1 −0")
}

// An update that asks for the values the service has is nothing to approve: answered so, and
// no plan is made; one that changes a value still plans.
func TestAnUpdateOfNothingIsNotPlanned(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	eostest.Deploy(t, h, "grafana")
	for _, text := range []string{"@eos update grafana", "@eos update grafana --port 3000"} {
		after := h.Last()
		h.Say("alice", text)
		h.WaitText(after, "grafana in local already has the values asked for, at the catalog's version: Terraform has nothing to change, so there is nothing to update and nothing is planned.")
	}
	if ps, err := h.Store.OpenPlans(context.Background(), func(*store.Plan) bool { return true }); err != nil || len(ps) != 0 {
		t.Errorf("open plans after updates of nothing: %d (%v), want none", len(ps), err)
	}
	p, id := eostest.Preview(t, h, "alice", "@eos update grafana --port 3001")
	if !strings.Contains(p.Text, "Declared values: --port 3000 → 3001") {
		t.Errorf("an update of a value:\n%s", p.Text)
	}
	// Asked again while that one waits, the answer names it: it is why nothing changed yet.
	after := h.Last()
	h.Say("alice", "@eos update grafana --port 3000")
	h.WaitText(after, "nothing to update and nothing is planned.", "Plan "+id+" (update grafana --port 3001 in local, asked by @alice) waits for approval in its thread.")
}

// failedAllocNomad is a Nomad layer whose job is as declared (its plan changes nothing) while
// its allocation failed: drift the drift check reports and no plan fixes.
type failedAllocNomad struct{ instantLayer }

func (failedAllocNomad) Plan(context.Context, executor.Spec) (executor.LayerPlan, error) {
	return executor.LayerPlan{Status: executor.PlanNoChanges, Summary: "no changes"}, nil
}
func (failedAllocNomad) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	return executor.LayerDrift{Status: executor.DriftDrifted, Changes: []executor.Change{
		{Action: executor.Update, Address: "grafana--local/grafana", Detail: "1 of 1 allocations failed"}}}, nil
}

// A reconcile or adopt whose plan changes nothing while the drift check still finds drift does
// not say "already matches its declared state": it says what differs and that no plan fixes it.
func TestAReconcileThatFixesNothingSaysWhatStillDiffers(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{failedAllocNomad{instantLayer{executor.Nomad}}}})
	eostest.Deploy(t, h, "grafana")
	for _, tc := range []struct{ verb, next string }{
		{"a reconcile", ": look at it in the layer itself. @eos drift grafana in local"},
		// An adopt takes in values; a reconcile is what may fix a failed allocation.
		{"an adopt", ": an adopt takes in what runs, and this is not something to declare. A reconcile fixes what a layer can (a failed Nomad allocation is placed again): @eos reconcile grafana in local"},
	} {
		after := h.Last()
		h.Say("alice", "@eos "+strings.Fields(tc.verb)[1]+" grafana")
		got := h.WaitText(after, "grafana in local still differs from its declared state (Nomad: grafana--local/grafana 1 of 1 allocations failed), but "+tc.verb+" would change nothing that fixes it, so nothing is planned"+tc.next)
		if strings.Contains(got.Text, "already matches") {
			t.Errorf("%s answered:\n%s", tc.verb, got.Text)
		}
	}
}
