package enginetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
)

// Plans stay where they were asked: from another channel a plan id is unknown to plan, cancel
// and status, and only an ops channel sees every channel's plans.
func TestPlansStayInTheirChannel(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"})
	h := eostest.New(t, eostest.Options{Adapters: []adapters.Adapter{chat}, OpsChannels: []string{"mattermost:ops"}})
	t.Cleanup(chat.stop)
	n := chat.count()
	chat.say(t, chat.user("alice"), "private", "@eos create grafana")
	p := chat.wait(t, n, "Plan ", "React ✅ to approve")
	id := eostest.PlanIDRe.FindStringSubmatch(p.Text)[1]

	n = chat.count()
	chat.say(t, chat.user("alice"), "public", "@eos plan "+id+" full")
	chat.wait(t, n, "There is no plan "+id)
	n = chat.count()
	chat.say(t, chat.user("alice"), "public", "@eos cancel "+id)
	chat.wait(t, n, "There is no plan "+id)
	n = chat.count()
	chat.say(t, chat.user("alice"), "public", "@eos status")
	if got := chat.wait(t, n, "deployed"); strings.Contains(got.Text, id) {
		t.Errorf("status in another channel shows the private plan:\n%s", got.Text)
	}
	if plan, _ := h.Store.Plan(context.Background(), id); plan.State != "pending" {
		t.Fatalf("a cancel from another channel changed the plan: %s", plan.State)
	}

	n = chat.count()
	chat.say(t, chat.user("bob"), "ops", "@eos status")
	chat.wait(t, n, "Plan "+id, "create grafana in local")
	n = chat.count()
	chat.say(t, chat.user("alice"), "private", "@eos cancel "+id)
	chat.wait(t, n, "Plan "+id+" cancelled by @alice")
}
