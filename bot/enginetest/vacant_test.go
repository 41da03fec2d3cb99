package enginetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// A handle the policy names that no account holds when Eos first looks it up (a typo, someone
// not yet joined) is pinned vacant: mallory, who takes the free name, gains nothing, and the
// refusal says why and what the operator does. Once carol has joined under it and the operator
// forgets the vacant pin, the next look-up pins carol and her approval runs the plan.
func TestAHandleNobodyHeldIsNotGivenToItsFirstTaker(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"},
		adapters.User{ID: "u-mallory", Name: "mallory"}, adapters.User{ID: "u-carol", Name: "carol-new"})
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1, Approvers: []string{"carol"}}, Envs: map[string]bot.EnvPolicy{}}
	h := fakeHarness(t, policy, chat)
	h.WaitLog("the policy names a handle no account holds") // at start-up: pinned vacant
	pin, err := h.Store.HandlePin(context.Background(), "mattermost", "carol")
	if err != nil || !pin.Vacant() {
		t.Fatalf("carol's pin after start-up = %+v, %v; want a vacant pin", pin, err)
	}

	n := chat.count()
	chat.say(t, chat.user("alice"), "infra", "@eos policy")
	chat.wait(t, n, "⚠ @carol names nobody on mattermost: no account held it when Eos first looked", "eos policy handles --forget mattermost:carol")

	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	mallory := chat.rename("u-mallory", "carol")
	n = chat.count()
	chat.react(mallory, p.Ref, "white_check_mark")
	chat.wait(t, n, "@carol can't approve local plans", `no mattermost account held the policy's "carol" when Eos first looked it up`,
		"eos policy handles --forget mattermost:carol")
	h.WaitLog("which no account held when Eos first looked it up, is held now")
	h.Idle()
	if runs, _ := h.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("mallory, who took the free handle carol, started a run: %+v", runs[0])
	}
	if pin, err := h.Store.HandlePin(context.Background(), "mattermost", "carol"); err != nil || !pin.Vacant() {
		t.Fatalf("carol's pin after mallory's reaction = %+v, %v; want it still vacant", pin, err)
	}

	chat.rename("u-mallory", "mallory")
	carol := chat.rename("u-carol", "carol")
	if _, err := h.Store.ForgetHandle(context.Background(), "mattermost", "carol", store.Entry{Kind: "unpin", User: "operator"}); err != nil {
		t.Fatal(err)
	}
	// eos policy handles --forget through the socket looks the handle up again at once.
	if pin, err := h.Engine.PinHandleNow(context.Background(), "mattermost", "carol"); err != nil || pin.ID != "u-carol" {
		t.Fatalf("the look-up after the forget pinned %+v, %v; want u-carol", pin, err)
	}
	if _, err := h.Engine.PinHandleNow(context.Background(), "slack", "carol"); err == nil || !strings.Contains(err.Error(), "not connected to slack") {
		t.Errorf("a look-up on a platform Eos is not on = %v", err)
	}
	chat.react(carol, p.Ref, "white_check_mark")
	chat.wait(t, n, "Run "+id+" · done in")
	if pin, err := h.Store.HandlePin(context.Background(), "mattermost", "carol"); err != nil || pin.ID != "u-carol" {
		t.Fatalf("carol's pin after the operator forgot the vacant one = %+v, %v; want u-carol", pin, err)
	}
}

// A handle a policy-as-code rule computes is first looked up when the rule decides, as the
// plan is previewed: nobody holds "dave" then, so it is pinned vacant, and mallory, renaming
// herself dave afterwards, cannot release the hold.
func TestAHandleARegoRuleComputesIsPinnedWhenItDecides(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"},
		adapters.User{ID: "u-mallory", Name: "mallory"})
	set := eostest.PolicySet(t, "owner.rego", `package eos.owner

require contains {"msg": "grafana needs its owner", "approvers": [concat("", ["da", "ve"])], "approvals": 1} if {
	input.request.target == "grafana"
}
`)
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1, Approvers: []string{"bob"}}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: policy, PolicyCode: set, Adapters: []adapters.Adapter{chat}})
	t.Cleanup(chat.stop)
	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	h.WaitLog("the policy names a handle no account holds")
	if pin, err := h.Store.HandlePin(context.Background(), "mattermost", "dave"); err != nil || !pin.Vacant() {
		t.Fatalf("dave's pin after the preview = %+v, %v; want a vacant pin", pin, err)
	}
	n := chat.count()
	chat.react(chat.user("bob"), p.Ref, "white_check_mark")
	mallory := chat.rename("u-mallory", "dave")
	chat.react(mallory, p.Ref, "white_check_mark")
	chat.wait(t, n, "@dave can't approve", `no mattermost account held the policy's "dave"`)
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("mallory, who took the free handle dave, released the hold: %+v", r)
	}
}

// A handle a policy-as-code rule names as a literal approver is pinned when the set is loaded,
// as the configuration's are: dave holds it at start-up, renames away before any plan names
// him, and mallory, who takes "dave", cannot release the hold; dave, back, can.
func TestARegoRulesLiteralApproverIsPinnedAtStartUp(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"},
		adapters.User{ID: "u-dave", Name: "dave"}, adapters.User{ID: "u-mallory", Name: "mallory"})
	set := eostest.PolicySet(t, "owner.rego", `package eos.owner

require contains {"msg": "grafana needs its owner", "approvers": ["dave"], "approvals": 1} if {
	input.request.target == "grafana"
}
`)
	policy := bot.Policy{Default: bot.EnvPolicy{Approvals: 1, Approvers: []string{"bob"}}, Envs: map[string]bot.EnvPolicy{}}
	h := eostest.New(t, eostest.Options{Policy: policy, PolicyCode: set, Adapters: []adapters.Adapter{chat}})
	t.Cleanup(chat.stop)
	h.WaitLog(`policy handle pinned to its account" platform=mattermost handle=dave id=u-dave`)
	david := chat.rename("u-dave", "david")
	mallory := chat.rename("u-mallory", "dave")

	p, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	n := chat.count()
	chat.react(chat.user("bob"), p.Ref, "white_check_mark")
	chat.react(mallory, p.Ref, "white_check_mark")
	chat.wait(t, n, "@dave can't approve", `the policy's "dave" names the account that held it when Eos first looked it up, not this one`)
	h.Idle()
	if r, err := h.Store.Run(context.Background(), id); err == nil {
		t.Fatalf("mallory, who took dave's handle before any plan named it, released the hold: %+v", r)
	}
	chat.rename("u-mallory", "mallory")
	chat.react(chat.rename(david.ID, "dave"), p.Ref, "white_check_mark")
	chat.wait(t, n, "Run "+id+" · done in")
}
