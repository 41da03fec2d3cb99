package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// `why` and `cancel` said without a plan id in a preview's thread are about that thread's
// plan: people answer a preview where it is, and copying its id is a step nobody expects.
// Outside a thread `why` asks which plan, and the thread's plan is cancelled by the same
// people as with its id.
func TestWhyAndCancelInAPlansThreadNeedNoID(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"},
		adapters.User{ID: "u-carol", Name: "carol"})
	bob := bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1, TTL: 30 * time.Minute}
	h := fakeHarness(t, bot.Policy{Default: bob, Envs: map[string]bot.EnvPolicy{"local": bob}}, chat)
	grafana, gid := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	_, jid := fakePreview(t, chat, chat.user("alice"), "@eos create jenkins")
	thread := adapters.PostRef{Platform: "mattermost", Channel: "infra", ID: grafana.Ref.Thread}

	n := chat.count()
	chat.sayIn(t, chat.user("bob"), thread, "@eos why")
	chat.wait(t, n, "Plan "+gid+" · create grafana in local · asked by @alice · pending", "No approval counts yet")

	n = chat.count()
	chat.say(t, chat.user("bob"), "infra", "@eos why")
	chat.wait(t, n, "Which plan? Name it (@eos why 7f3a9c21, the id in its preview), or say @eos why in the plan's thread. Open here:",
		gid+" · create grafana in local · asked by @alice · pending · @eos why "+gid, jid+" · create jenkins in local · asked by @alice · pending · @eos why "+jid)
	n = chat.count()
	chat.say(t, chat.user("bob"), "elsewhere", "@eos why") // another channel sees neither
	if p := chat.wait(t, n, "Which plan?"); strings.Contains(p.Text, gid) || strings.Contains(p.Text, "Open here") {
		t.Errorf("another channel is shown this channel's plans: %s", p.Text)
	}
	n = chat.count()
	chat.say(t, chat.user("bob"), "infra", "@eos plan full")
	chat.wait(t, n, "plan needs a service or a plan id, like plan nextcloud or plan 7f3a9c21; in a plan's thread, @eos plan full shows its every change.")

	// carol may not cancel it, with or without its id.
	n = chat.count()
	chat.sayIn(t, chat.user("carol"), thread, "@eos cancel")
	chat.wait(t, n, "@carol can't cancel plan "+gid)

	// alice has two pending plans: in grafana's thread, `cancel` is grafana's, not a list.
	n = chat.count()
	chat.sayIn(t, chat.user("alice"), thread, "@eos cancel")
	chat.wait(t, n, "Plan "+gid+" cancelled by @alice")
	h.Idle()
	for id, want := range map[string]store.PlanState{gid: store.PlanCancelled, jid: store.PlanPending} {
		if p, err := h.Store.Plan(context.Background(), id); err != nil || p.State != want {
			t.Errorf("plan %s: %+v, %v; want %s", id, p, err, want)
		}
	}
}

// A drift digest's thread holds the previews of the reconcile plans its 🔧s asked for: with
// two open there, `why` and `cancel` without an id pick neither (cancelling the latest could
// end the wrong plan); with one, they are about it.
func TestWhyAndCancelInADigestThreadOfSeveralPlansAskWhich(t *testing.T) {
	t.Parallel()
	h, clock := twoDrifted(t)
	ctx := context.Background()
	head := nextDigest(t, h, clock, 90*time.Second, "2 new since the last digest")
	var ids []string
	for _, service := range []string{"grafana", "jenkins"} {
		reply := serviceReply(h, head, service)
		after := h.Last()
		h.React("alice", reply.ID, "🔧")
		p := h.WaitText(after, "reconcile "+service+" in local · asked by @alice", "React ✅ to approve")
		ids = append(ids, eostest.PlanIDRe.FindStringSubmatch(p.Text)[1])
	}

	after := h.Last()
	h.Reply("alice", head.ID, "@eos why")
	h.WaitText(after, "Which plan? Name it")
	after = h.Last()
	h.Reply("alice", head.ID, "@eos cancel")
	h.WaitText(after, "You have 2 pending plans; name the one to cancel. Nothing was cancelled.")

	after = h.Last()
	h.Say("alice", "@eos cancel "+ids[1])
	h.WaitText(after, "Plan "+ids[1]+" cancelled by @alice")
	after = h.Last()
	h.Reply("bob", head.ID, "@eos why")
	h.WaitText(after, "Plan "+ids[0]+" · reconcile grafana in local · asked by @alice · pending")
	if p, err := h.Store.Plan(ctx, ids[0]); err != nil || p.State != store.PlanPending {
		t.Errorf("grafana's reconcile = %+v, %v; want it pending", p, err)
	}
}

// A request asked inside another plan's thread puts its preview there too: `cancel` without an
// id there could mean either, so it cancels neither.
func TestCancelInAThreadWithASecondRequestAsksWhich(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"})
	bob := bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1, TTL: 30 * time.Minute}
	h := fakeHarness(t, bot.Policy{Default: bob, Envs: map[string]bot.EnvPolicy{"local": bob}}, chat)
	grafana, gid := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")
	thread := adapters.PostRef{Platform: "mattermost", Channel: "infra", ID: grafana.Ref.Thread}
	n := chat.count()
	chat.sayIn(t, chat.user("alice"), thread, "@eos create jenkins")
	jenkins := chat.wait(t, n, "Plan ", "create jenkins in local")
	jid := eostest.PlanIDRe.FindStringSubmatch(jenkins.Text)[1]

	n = chat.count()
	chat.sayIn(t, chat.user("alice"), thread, "@eos cancel")
	chat.wait(t, n, "You have 2 pending plans; name the one to cancel. Nothing was cancelled.")
	h.Idle()
	for _, id := range []string{gid, jid} {
		if p, err := h.Store.Plan(context.Background(), id); err != nil || p.State != store.PlanPending {
			t.Errorf("plan %s: %+v, %v; want it pending", id, p, err)
		}
	}
}
