package enginetest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
)

// A policy may name a platform group: its members approve, others are told who may, and a
// group the platform does not know admits nobody.
func TestApproversByGroup(t *testing.T) {
	t.Parallel()
	policy := bot.Policy{
		Default: bot.EnvPolicy{Approvals: 1},
		Envs: map[string]bot.EnvPolicy{"production": {Approvers: []string{"group:sre", "group:ghosts"}, Approvals: 1,
			Requesters: []string{"alice", "group:dev"}}},
	}
	h := eostest.New(t, eostest.Options{Policy: policy, ConsoleGroups: map[string][]string{"sre": {"dave"}, "dev": {"erin"}}})

	p, id := eostest.Preview(t, h, "alice", "@eos create grafana in production")
	if !strings.Contains(p.Text, "Needs 1 approval from group:sre or group:ghosts — not @alice (asked)") {
		t.Errorf("preview does not state the policy:\n%s", p.Text)
	}
	h.React("carol", p.ID, "+1") // in no group
	h.WaitText(p.ID, "@carol can't approve production plans (approvers: anyone in group sre, anyone in group ghosts). Nothing changed.")
	h.React("dave", p.ID, "+1") // in sre
	h.WaitText(p.ID, "Run "+id+" · done in")

	// erin asks through the dev group; frank, in none, may not ask.
	eostest.Preview(t, h, "erin", "@eos create jenkins in production")
	after := h.Last()
	h.Say("frank", "@eos create authentik in production")
	h.WaitText(after, "@frank can't ask for changes in production (requesters: @alice, anyone in group dev). Nothing changed.")
	h.Idle()
	if !strings.Contains(h.Log.String(), "the policy names a group the platform does not know") {
		t.Error("the unknown group ghosts was not logged")
	}
}

// A secret typed in chat is refused, and the message leaves the console's transcript; the
// answer says so and where the secret lives.
func TestTypedSecretIsTakenDown(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	after := h.Last()
	h.Say("alice", "@eos create grafana --admin-password hunter2")
	got := h.WaitText(after, "Secrets are never typed in chat", "I deleted your message")
	if !strings.HasPrefix(got.Text, "@alice ") || got.Thread != 0 {
		t.Errorf("the answer should be at channel level, naming alice (the thread went with the message):\n%+v", got)
	}
	h.Idle()
	for _, post := range h.Console.Posts() {
		if strings.Contains(post.Text, "hunter2") {
			t.Errorf("post %d still shows the secret: %q", post.ID, post.Text)
		}
	}
	removed := 0
	for _, post := range h.Console.Posts() {
		if post.Removed && post.Text == console.RemovedText {
			removed++
		}
	}
	if removed != 1 {
		t.Errorf("%d posts marked removed, want the one request", removed)
	}
	entries, _ := h.Store.Audit(context.Background(), nil)
	var refusal string
	for _, e := range entries {
		if e.Kind == "refusal" {
			refusal = e.Text
		}
		if strings.Contains(e.Text, "hunter2") {
			t.Errorf("audit entry %d shows the secret", e.Seq)
		}
	}
	if refusal != "secret typed in chat; message deleted" {
		t.Errorf("audit refusal = %q", refusal)
	}
}

// A message that does not parse but holds a secret is answered with the mistake, the secret
// masked, and taken down like any typed secret.
func TestMistakeWithASecretIsTakenDown(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	after := h.Last()
	h.Say("alice", "@eos create grafana --admin-pasword hunter2")
	got := h.WaitText(after, "--admin-password is a secret: Eos generates it and keeps it in Vault, never type it in chat", "I deleted your message")
	if !strings.Contains(got.Text, "--admin-pasword •••••••") {
		t.Errorf("the caret display should show the value masked:\n%s", got.Text)
	}
	h.Idle()
	for _, post := range h.Console.Posts() {
		if strings.Contains(post.Text, "hunter2") {
			t.Errorf("post %d shows the secret: %q", post.ID, post.Text)
		}
	}
}
