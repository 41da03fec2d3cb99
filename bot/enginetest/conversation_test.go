package enginetest_test

import (
	"context"
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

func TestCreateApproveRunHistory(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
	for _, want := range []string{"create nextcloud --sso in local · asked by @alice", "Terraform | +7 ~0 −0", "Salt      | not configured — skipped",
		"Nomad     | not configured — skipped", "Also brings in authentik (because of --sso)"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("preview lacks %q:\n%s", want, p.Text)
		}
	}
	if p.Thread == 0 {
		t.Error("preview was not posted in the request's thread")
	}

	h.React("bob", p.ID, "+1")
	done := h.WaitText(p.ID, "Run "+id+" · done in", "Terraform ✅ +7")
	if done.Edits == 0 {
		t.Errorf("the progress post was never edited; it should be one post edited in place")
	}
	for _, tc := range []struct{ unit, want string }{
		{"nextcloud", "eoslab_dns_record.main eoslab_firewall.main eoslab_server.main eoslab_volume.data"},
		{"authentik", "eoslab_dns_record.main eoslab_firewall.main eoslab_server.main"},
	} {
		got := strings.Join(eostest.StateResources(t, filepath.Join(h.DataDir, "terraform", "local", tc.unit, "terraform.tfstate")), " ")
		if got != tc.want {
			t.Errorf("%s state = %q, want %q", tc.unit, got, tc.want)
		}
	}

	after := h.Last()
	h.Say("alice", "@eos history nextcloud")
	hist := h.WaitText(after, "History of nextcloud")
	if !strings.Contains(hist.Text, id) || !strings.Contains(hist.Text, "done") || !strings.Contains(hist.Text, "@alice → @bob") {
		t.Errorf("history does not show the run:\n%s", hist.Text)
	}

	// A second approval of the applied plan starts nothing.
	after = h.Last()
	h.React("carol", p.ID, "white_check_mark")
	h.WaitText(after, "Plan "+id+" already ran (run "+id+", done ", "): nothing started; ask again for a new plan.")
	h.Idle()
	runs, err := h.Store.Runs(context.Background(), nil)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %d (%v), want exactly 1", len(runs), err)
	}
	d, err := h.Store.Declared(context.Background(), "local/nextcloud")
	if err != nil || d.RunID != id || d.Spec.Units[0].Values["sso"] != "true" {
		t.Fatalf("declared nextcloud = %+v, %v", d, err)
	}
	// The simulated cloud holds the objects, one file each.
	for _, f := range []string{"server/proxy-nextcloud-local.json", "volume/data-nextcloud-local.json", "dns_record/cloud.local.test_A.json"} {
		if _, err := os.Stat(filepath.Join(h.Cloud(), f)); err != nil {
			t.Errorf("simulated cloud lacks %s: %v", f, err)
		}
	}

	// Destroy removes them again, and only nextcloud's: authentik stays.
	dp, did := eostest.Preview(t, h, "alice", "@eos destroy nextcloud")
	if !strings.Contains(dp.Text, "Terraform | +0 ~0 −4") {
		t.Errorf("destroy preview:\n%s", dp.Text)
	}
	h.React("bob", dp.ID, "+1")
	h.WaitText(dp.ID, "Run "+did+" · done in")
	for _, f := range []string{"server/proxy-nextcloud-local.json", "volume/data-nextcloud-local.json"} {
		if _, err := os.Stat(filepath.Join(h.Cloud(), f)); !os.IsNotExist(err) {
			t.Errorf("%s still exists after destroy (stat: %v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(h.Cloud(), "server/proxy-authentik-local.json")); err != nil {
		t.Errorf("destroying nextcloud removed authentik: %v", err)
	}
	if d, err := h.Store.Declared(context.Background(), "local/nextcloud"); err != nil || !d.Destroyed {
		t.Errorf("declared nextcloud after destroy = %+v, %v", d, err)
	}
}

func TestFailureHalfwayIsRolledBack(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{FailOn: []string{"data-jenkins-local"}})
	p, id := eostest.Preview(t, h, "alice", "@eos create jenkins")
	h.React("bob", p.ID, "+1")
	res := h.WaitText(p.ID, "Run "+id+" · failed")
	waitPreview(t, h, p, "approved by @bob ✅ · run "+id+" failed (rolled back)")
	for _, want := range []string{"Terraform ❌", "eoslab_volume.data", "Rolled back:", "the lock on jenkins/local is released"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("failure post lacks %q:\n%s", want, res.Text)
		}
	}
	// The server was created before the volume failed; the rollback removed it again.
	entries, _ := os.ReadDir(filepath.Join(h.Cloud(), "server"))
	if len(entries) != 0 {
		t.Errorf("objects left after rollback: %v", entries)
	}
	r, err := h.Store.Run(context.Background(), id)
	if err != nil || r.State != store.RunFailed {
		t.Fatalf("run = %+v, %v", r, err)
	}
	if _, err := h.Store.Declared(context.Background(), "local/jenkins"); err == nil {
		t.Error("a failed run was recorded as declared state")
	}
	// why on the failed plan says how its run failed, not only that it was approved.
	after := h.Last()
	h.Say("alice", "@eos why "+id)
	h.WaitText(after, "Run "+id+" failed at ", "Terraform ❌", "eoslab_volume.data")
}

func TestDriftFindsAnOutOfBandChange(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	after := h.Last()
	h.Say("alice", "@eos drift")
	h.WaitText(after, "grafana in local matches its declared state")

	// Someone resizes the server behind Eos's back.
	eostest.EditCloud(t, h, "server", "proxy-grafana-local", "size", "xlarge")
	after = h.Last()
	h.Say("alice", "@eos drift grafana")
	got := h.WaitText(after, "1 of 1 services drifted")
	if !strings.Contains(got.Text, "eoslab_server.main") || !strings.Contains(got.Text, "xlarge") {
		t.Errorf("drift report does not name the changed resource and value:\n%s", got.Text)
	}
}

func TestRejectionChangesNothing(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "x")
	h.WaitText(p.ID-1, "Plan "+id, "rejected by @bob ❌ · nothing changed")
	// An approval after the rejection starts nothing either.
	after := h.Last()
	h.React("carol", p.ID, "+1")
	h.WaitText(after, "is rejected: nothing started")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("a rejected plan ran: %+v", runs)
	}
	if _, err := os.Stat(filepath.Join(h.DataDir, "terraform", "local", "grafana", "terraform.tfstate")); !os.IsNotExist(err) {
		t.Fatalf("terraform state exists after a rejection (stat: %v)", err)
	}
}

func TestExpiredPlanIsNotApplied(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	h := eostest.New(t, eostest.Options{Clock: clock})
	p, id := eostest.Preview(t, h, "alice", "@eos create jenkins")
	if !strings.Contains(p.Text, "expires 14:30 UTC") {
		t.Errorf("preview does not say when it expires:\n%s", p.Text)
	}
	clock.Advance(31 * time.Minute)
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Plan "+id+" expired at 14:30 UTC: nothing changed")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("an expired plan ran: %+v", runs)
	}
	got, err := h.Store.Plan(context.Background(), id)
	if err != nil || got.State != store.PlanExpired {
		t.Fatalf("plan state = %v (%v), want expired", got, err)
	}
}

func TestApprovalPolicy(t *testing.T) {
	t.Parallel()
	policy := bot.Policy{
		Default: bot.EnvPolicy{Approvals: 1},
		Envs:    map[string]bot.EnvPolicy{"production": {Approvers: []string{"alice", "bob", "dave"}, Approvals: 2}},
	}
	h := eostest.New(t, eostest.Options{Policy: policy})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana in production")
	if !strings.Contains(p.Text, "Needs 2 approvals from @alice, @bob or @dave — not @alice (asked)") {
		t.Errorf("preview does not state the policy:\n%s", p.Text)
	}
	// carol is not an approver: told once, however often she reacts.
	h.React("carol", p.ID, "+1")
	h.WaitText(p.ID, "@carol can't approve production plans (approvers: @alice, @bob, @dave). Nothing changed.")
	h.Unreact("carol", p.ID, "+1")
	h.React("carol", p.ID, "+1")
	// alice may not approve her own production plan.
	h.React("alice", p.ID, "+1")
	h.WaitText(p.ID, "@alice can't approve production plans (the requester's own approval does not count here)")
	// bob approves twice (a redelivery): counted once.
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID-1, "Plan "+id, "1 of 2: @bob ✅ · waiting for one more")
	h.React("bob", p.ID, "+1")
	h.React("dave", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Idle()
	var carolTold int
	for _, post := range h.Console.Posts() {
		if strings.Contains(post.Text, "@carol can't approve") {
			carolTold++
		}
	}
	if carolTold != 1 {
		t.Errorf("carol was told %d times, want once", carolTold)
	}
	r, err := h.Store.Run(context.Background(), id)
	if err != nil || strings.Join(r.Approvers, ",") != "bob,dave" {
		t.Fatalf("run approvers = %v (%v), want bob,dave", r, err)
	}
}

func TestMistakesGetSpecificAnswers(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	for _, tc := range []struct{ say, want string }{
		{"@eos create nextclod --sso", `unknown service "nextclod" — did you mean "nextcloud"?`},
		{"@eos create nextclod", "Services: authentik, grafana, jenkins, nextcloud · @eos help"},
		{"@eos craete grafana", `did you mean "create"?`},
		{"@eos create grafana --colour blue", `unknown flag "--colour"`},
		{"@eos create grafana --colour red", "@eos help grafana lists its flags"},
		{"@eos create nextcloud --admin-password hunter2", "Secrets are never typed in chat: with Vault configured I generate nextcloud's admin password and keep it at secret/eos/local/nextcloud, key admin_password; this Eos has no Vault, so it keeps none."},
		{"@eos destroy jenkins", "jenkins is not deployed in local: nothing to destroy."},
		{"@eos update grafana --port 3001", "grafana is not deployed in local yet. To deploy it: @eos create grafana"},
		{"@eos history", "No runs of anything yet."},
		{"@eos cancel", "You have no pending plan to cancel."},
	} {
		after := h.Last()
		h.Say("alice", tc.say)
		got := h.WaitPost(after, func(console.Post) bool { return true })
		if !strings.Contains(got.Text, tc.want) {
			t.Errorf("%q answered:\n%s\nwant it to contain %q", tc.say, got.Text, tc.want)
		}
		if strings.Contains(got.Text, "hunter2") {
			t.Errorf("the answer to %q repeats the secret", tc.say)
		}
	}
	if runs, _ := h.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); len(runs) != 0 {
		t.Fatalf("mistakes created plans: %d", len(runs))
	}
}

func TestCancelEndsAPendingPlan(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana --port 3001")
	after := h.Last()
	h.Say("alice", "@eos cancel "+id)
	h.WaitText(after, "Plan "+id+" cancelled by @alice. Nothing changed.")
	after = h.Last()
	h.React("bob", p.ID, "+1")
	h.WaitText(after, "is cancelled: nothing started")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("a cancelled plan ran")
	}
}

// An approval holds for the exact plan it was given on: when the world changes between the
// preview and the approval, Eos plans again, applies nothing, and asks for a new approval.
func TestPlanChangedBeforeApplyAsksAgain(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")

	up, uid := eostest.Preview(t, h, "alice", "@eos update grafana --domain grafana.example.org")
	if !strings.Contains(up.Text, "Terraform | +0 ~0 −0 ±1") {
		t.Fatalf("update preview:\n%s", up.Text)
	}
	resizeServer(t, h, "proxy-grafana-local", "xlarge") // someone changes the server meanwhile
	h.React("bob", up.ID, "+1")
	h.WaitText(up.ID, "Plan "+uid+" changed since it was approved", "nothing was applied")
	fresh := h.WaitPost(up.ID, func(p console.Post) bool {
		return strings.Contains(p.Text, "update grafana --domain grafana.example.org in local") && !strings.Contains(p.Text, uid)
	})
	if !strings.Contains(fresh.Text, "Terraform | +0 ~1 −0 ±1") {
		t.Errorf("the fresh plan should also revert the server's size:\n%s", fresh.Text)
	}
	h.Idle()
	old, err := h.Store.Plan(context.Background(), uid)
	if err != nil || old.State != store.PlanSuperseded {
		t.Fatalf("old plan = %+v, %v", old, err)
	}
	if _, err := h.Store.Run(context.Background(), uid); err == nil {
		t.Fatal("the superseded plan ran")
	}
	// The fresh plan runs once approved.
	fid := eostest.PlanIDRe.FindStringSubmatch(fresh.Text)[1]
	h.React("bob", fresh.ID, "+1")
	h.WaitText(fresh.ID, "Run "+fid+" · done in")
}

// An operation from the catalog touches only its layer: resize lvm is Salt only.
func TestOperationPreviewIsSaltOnly(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{instantLayer{executor.Salt}}})
	p, _ := eostest.Preview(t, h, "alice", "@eos resize lvm data-nextcloud +50G on node1")
	for _, want := range []string{"resize lvm data-nextcloud +50G on node1 in local", "Salt      | +1 ~0 −0: x", "Terraform | nothing to do", "Nomad     | nothing to do"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("operation preview lacks %q:\n%s", want, p.Text)
		}
	}
}

// settledSalt is a Salt layer whose test run finds everything as asked.
type settledSalt struct{ instantLayer }

func (settledSalt) Plan(context.Context, executor.Spec) (executor.LayerPlan, error) {
	return executor.LayerPlan{Status: executor.PlanNoChanges, Summary: "no changes"}, nil
}

// An operation Salt's test run finds already done is answered so, and no plan is made.
func TestOperationThatChangesNothingIsNotPlanned(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{settledSalt{instantLayer{executor.Salt}}}})
	after := h.Last()
	h.Say("alice", "@eos resize lvm data-nextcloud +50G on node1")
	h.WaitText(after, "resize lvm would change nothing: Salt finds everything already as asked, so nothing is planned.")
	if ps, err := h.Store.OpenPlans(context.Background(), func(*store.Plan) bool { return true }); err != nil || len(ps) != 0 {
		t.Errorf("open plans after an operation that changes nothing: %d (%v), want none", len(ps), err)
	}
}

// An operation whose only layer is not configured here would run nothing and say "done": it
// is answered so, and no plan is made for someone to approve.
func TestOperationOnALayerNotConfiguredIsNotPlanned(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	after := h.Last()
	h.Say("alice", "@eos resize lvm data-nextcloud +50G on node1")
	h.WaitText(after, "resize lvm runs on Salt, which is not configured here: approving it would run nothing, so nothing is planned.")
	if ps, err := h.Store.OpenPlans(context.Background(), func(*store.Plan) bool { return true }); err != nil || len(ps) != 0 {
		t.Errorf("open plans after an operation that runs nowhere: %d (%v), want none", len(ps), err)
	}
}
