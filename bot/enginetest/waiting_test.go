package enginetest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot"
)

// A request refused because the service is not deployed yet names the pending plan that would
// deploy it, in the channels that may see that plan: "to deploy it: @eos create grafana" alone
// sent people to ask for a second plan beside the first. Another channel hears nothing of it.
func TestARefusedRequestNamesThePendingPlanOnItsService(t *testing.T) {
	t.Parallel()
	chat := newChatFake("mattermost", adapters.User{ID: "u-alice", Name: "alice"}, adapters.User{ID: "u-bob", Name: "bob"})
	bob := bot.EnvPolicy{Approvers: []string{"bob"}, Approvals: 1, TTL: 30 * time.Minute}
	fakeHarness(t, bot.Policy{Default: bob, Envs: map[string]bot.EnvPolicy{"local": bob}}, chat)
	_, id := fakePreview(t, chat, chat.user("alice"), "@eos create grafana")

	n := chat.count()
	chat.say(t, chat.user("bob"), "infra", "@eos update grafana --port 3001")
	chat.wait(t, n, "grafana is not deployed in local yet. To deploy it: @eos create grafana (with the same flags) · plan "+id+
		" (create grafana in local, asked by @alice) waits for approval in its thread")
	n = chat.count()
	chat.say(t, chat.user("bob"), "infra", "@eos destroy grafana")
	chat.wait(t, n, "nothing to destroy. Plan "+id+" (create grafana in local, asked by @alice) waits for approval in its thread.")

	n = chat.count()
	chat.say(t, chat.user("bob"), "elsewhere", "@eos destroy grafana")
	if p := chat.wait(t, n, "nothing to destroy"); strings.Contains(p.Text, id) {
		t.Errorf("another channel is told of plan %s: %s", id, p.Text)
	}
}
