package enginetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
)

// fakeHarness runs the engine with the given policy and one chatFake beside the console.
func fakeHarness(t *testing.T, policy bot.Policy, chat *chatFake) *eostest.Harness {
	t.Helper()
	h := eostest.New(t, eostest.Options{Policy: policy, Adapters: []adapters.Adapter{chat}})
	t.Cleanup(chat.stop) // before the harness stops: cleanups run last first
	return h
}

// fakePreview asks for text as u and returns the preview post and the plan id.
func fakePreview(t *testing.T, chat *chatFake, u adapters.User, text string) (fakePost, string) {
	t.Helper()
	n := chat.count()
	chat.say(t, u, "infra", text)
	p := chat.wait(t, n, "Plan ", "React ✅ to approve")
	return p, eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]
}

// A requester who renames themselves is still the requester: their approval does not count
// where self-approval is off.
func TestRenamedRequesterCannotApprove(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"})
	h := fakeHarness(t, bot.Policy{Default: bot.EnvPolicy{Approvals: 1}}, chat)
	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")

	renamed := chat.rename("u-alice", "alice2")
	n := chat.count()
	chat.react(renamed, p.Ref, "+1")
	chat.wait(t, n, "@alice2 can't approve local plans (the requester's own approval does not count here)")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("the renamed requester's approval started a run: %+v", runs[0])
	}
	chat.react(chat.user("bob"), p.Ref, "+1")
	chat.wait(t, n, "Run "+id+" · done in")
}

// One person reacting under two names counts once.
func TestOnePersonUnderTwoNamesCountsOnce(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"},
		adapters.User{ID: "u-carol", Name: "carol"})
	h := fakeHarness(t, bot.Policy{Default: bot.EnvPolicy{Approvals: 2}}, chat)
	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")

	n := chat.count()
	chat.react(chat.user("bob"), p.Ref, "+1")
	chat.wait(t, 0, "Plan "+id, "1 of 2: @bob ✅ · waiting for one more")
	chat.react(chat.rename("u-bob", "robert"), p.Ref, "white_check_mark")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("bob's second name counted as a second approval: run %+v", runs[0])
	}
	if plan, _ := h.Store.Plan(context.Background(), id); len(plan.Approvals) != 1 {
		t.Fatalf("approvals = %+v, want bob's one", plan.Approvals)
	}
	chat.react(chat.user("carol"), p.Ref, "+1")
	chat.wait(t, n, "Run "+id+" · done in")
}

// The policy names people by handle; a handle is whoever the platform says holds it now, by
// ID. The name an event carries proves nothing, and a handle on one platform is not the same
// handle on another.
func TestApproverIsJudgedByPlatformAndID(t *testing.T) {
	t.Parallel()
	mm := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"})
	dc := newChatFake("discord", adapters.User{ID: "d-alice", Name: "alice"}, adapters.User{ID: "d-bob", Name: "bob"})
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1, Approvers: []string{"mattermost:bob"}}}
	h := eostest.New(t, eostest.Options{Policy: policy, Adapters: []adapters.Adapter{mm, dc}})
	t.Cleanup(mm.stop)
	t.Cleanup(dc.stop)

	p, _ := fakePreview(t, dc, dc.user("alice"), "@eos create grafana")
	if !strings.Contains(p.Text, "Needs 1 approval from @bob on mattermost — not @alice (asked)") {
		t.Errorf("the preview does not say whose approval counts:\n%s", p.Text)
	}
	n := dc.count()
	dc.react(dc.user("bob"), p.Ref, "+1") // bob on Discord is not bob on Mattermost
	dc.wait(t, n, "@bob can't approve local plans")

	mp, _ := fakePreview(t, mm, mm.user("alice"), "@eos create jenkins")
	n = mm.count()
	mm.react(adapters.User{ID: "u-mallory", Name: "bob"}, mp.Ref, "+1") // an event naming bob, from someone else
	mm.wait(t, n, "@bob can't approve local plans")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("a run started without bob's approval: %+v", runs[0])
	}
	mm.react(mm.rename("u-bob", "robert"), mp.Ref, "+1") // bob renamed: the policy's "bob" is nobody now
	mm.wait(t, n, "@robert can't approve local plans")
}

// A handle the policy names is pinned to the account that held it when Eos first looked it
// up. Bob renames himself and mallory takes the handle bob: her ✅ counts for nothing, the
// refusal says why and the log warns the operator; bob, back under his handle, approves.
// Before, the policy's "bob" was whoever held the handle at the moment of the reaction, so
// mallory could approve production plans by renaming herself.
func TestAHandleTakenByAnotherAccountGainsItNothing(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"},
		adapters.User{ID: "u-mallory", Name: "mallory"})
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1, Approvers: []string{"bob"}}, Envs: map[string]bot.EnvPolicy{}}
	h := fakeHarness(t, policy, chat)
	h.WaitLog("policy handle pinned to its account") // at start-up, while bob holds it

	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	robert := chat.rename("u-bob", "robert")
	mallory := chat.rename("u-mallory", "bob")
	n := chat.count()
	chat.react(mallory, p.Ref, "+1")
	chat.wait(t, n, "@bob can't approve local plans", `the policy's "bob" names the account that held it when Eos first looked it up, not this one`)
	h.WaitLog("a handle the policy names is held now by another account than the one it is pinned to")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("mallory, holding the handle bob now, started a run: %+v", runs[0])
	}
	chat.react(robert, p.Ref, "+1") // the pinned account, renamed away: not "bob" now either
	chat.wait(t, n, "@robert can't approve local plans")
	chat.rename("u-mallory", "mallory")
	chat.react(chat.rename("u-bob", "bob"), p.Ref, "white_check_mark")
	chat.wait(t, n, "Run "+id+" · done in")
	pin, err := h.Store.HandlePin(context.Background(), "mattermost", "bob")
	if err != nil || pin.ID != "u-bob" {
		t.Fatalf("bob's pin = %+v, %v; want u-bob", pin, err)
	}
}
