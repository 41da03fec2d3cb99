package e2e_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/mattermost/mattermost/server/public/model"
)

// Policy as code against a real Mattermost server: a deny answers with ⛔ and the rule, and no
// ✅ runs it; a require holds the plan until the person it names approves, then it runs once;
// a warning is shown and changes nothing.

// bobApprovesMM is the approval policy of these tests: one approval from alice or bob.
func bobApprovesMM() bot.Policy {
	return bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"alice", "bob"}, Approvals: 1}}
}

func TestE2EMattermostPolicyDenyIsNeverApproved(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-deny")
	b := startMMBot(t, s, ch, eostest.Options{Policy: bobApprovesMM(), PolicyCode: eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy)})
	deniedOnMM(t, s, b, ch, "@eos create grafana", "grafana is retired here: use the metrics stack (eos.retired.deny, retired.rego:3)")
}

// deniedOnMM asks for text as alice and checks that the preview shows ⛔ with deny (the
// message and the rule) instead of the reaction prompt, that bob's ✅ is answered with the
// deny, and that nothing runs.
func deniedOnMM(t *testing.T, s *mmtest.Server, b *mmBot, ch *model.Channel, text, deny string) {
	t.Helper()
	req := s.Alice.Say(t, ch.Id, "", text)
	preview := botSays(t, s, req.Id, "Plan ", "⛔ The policy denies this plan: "+deny, "No approval possible: nothing will run.")
	if strings.Contains(preview.Message, "React ✅") {
		t.Fatalf("a denied plan's preview offers the reaction prompt:\n%s", preview.Message)
	}
	id := eostest.PlanIDRe.FindStringSubmatch(preview.Message)[1]
	waitPreviewRecorded(t, b, id, preview)
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Plan "+id+" cannot be approved: the policy denies it.", "⛔ "+deny[:20])
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("bob's ✅ ran a denied plan: %d runs", len(runs))
	}
}

func TestE2EMattermostPolicyRequireHoldsUntilTheNamedPersonApproves(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-require")
	set := eostest.PolicySet(t, "owner.rego", `package eos.owner

require contains {"msg": "carol owns grafana", "approvers": ["carol"], "approvals": 1} if input.request.target == "grafana"
`)
	b := startMMBot(t, s, ch, eostest.Options{Policy: bobApprovesMM(), PolicyCode: set})

	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	if !strings.Contains(preview.Message, "1 from @carol (eos.owner.require: carol owns grafana)") {
		t.Fatalf("the preview does not name the require rule:\n%s", preview.Message)
	}
	waitPreviewRecorded(t, b, id, preview)
	// bob satisfies the approval policy, not the rule: the plan is held.
	s.Bob.React(t, preview.Id, "white_check_mark")
	s.WaitPost(t, req.Id, func(p *model.Post) bool {
		return p.Id == preview.Id && strings.Contains(p.Message, "eos.owner.require: 0 of 1 from @carol") && strings.Contains(p.Message, "@bob ✅")
	})
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("the plan ran without carol: %d runs", len(runs))
	}
	s.Carol.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
	b.Idle()
	runs, err := b.Store.Runs(context.Background(), nil)
	if err != nil || len(runs) != 1 || runs[0].State != store.RunDone || !slices.Equal(runs[0].Approvers, []string{"bob", "carol"}) {
		t.Fatalf("runs = %+v (%v), want one done, approved by bob and carol", runs, err)
	}
	kinds := auditOf(t, b, id)
	var carol []string
	for _, e := range kinds["approval"] {
		if e.User == "carol" {
			carol = append(carol, e.Text)
		}
	}
	if len(carol) != 1 || !strings.Contains(carol[0], "eos.owner.require: 1 of 1 from @carol ✅") {
		t.Errorf("carol's approval audit = %q, want it to name the rule it released", carol)
	}
	if p := kinds["policy"]; len(p) != 1 || !strings.Contains(p[0].Text, "sha256:"+set.SHA256()) {
		t.Errorf("policy audit = %+v, want one line with the set's SHA-256", p)
	}
}

func TestE2EMattermostPolicyWarningChangesNothing(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-warn")
	set := eostest.PolicySet(t, "note.rego", `package eos.note

warn contains "grafana keeps its dashboards in the database: back it up first" if input.request.target == "grafana"
`)
	startMMBot(t, s, ch, eostest.Options{Policy: bobApprovesMM(), PolicyCode: set})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	if !strings.Contains(preview.Message, "⚠️ Policy warning: grafana keeps its dashboards in the database: back it up first (eos.note.warn, note.rego:3)") ||
		!strings.Contains(preview.Message, "Needs 1 approval from @alice or @bob — not @alice (asked)") {
		t.Fatalf("preview:\n%s", preview.Message)
	}
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Run "+id+" · done in")
}

// A policy set reloaded while a plan waits judges it again: its preview on Mattermost is
// edited to ⛔ with the rule and loses the reaction prompt, bob's ✅ is refused, nothing runs;
// a reload that drops the set brings the prompt back.
func TestE2EMattermostAReloadedPolicyDeniesAWaitingPlan(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-reload")
	b := startMMBot(t, s, ch, eostest.Options{Policy: bobApprovesMM()})
	req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana")
	if !strings.Contains(preview.Message, "React ✅") {
		t.Fatalf("the preview before any policy as code has no reaction prompt:\n%s", preview.Message)
	}
	waitPreviewRecorded(t, b, id, preview)

	b.Engine.SetPolicyCode(eostest.PolicySet(t, "retired.rego", eostest.RetiredPolicy))
	b.Engine.SetPolicy(context.Background(), b.Engine.Policy())
	s.WaitPost(t, req.Id, func(p *model.Post) bool {
		return p.Id == preview.Id && strings.Contains(p.Message, "⛔ The policy denies this plan: grafana is retired here: use the metrics stack (eos.retired.deny, retired.rego:3)") &&
			!strings.Contains(p.Message, "React ✅")
	})
	s.Bob.React(t, preview.Id, "white_check_mark")
	botSays(t, s, req.Id, "Plan "+id+" cannot be approved: the policy denies it.", "⛔ grafana is retired here")
	b.Idle()
	if runs, _ := b.Store.Runs(context.Background(), nil); len(runs) != 0 {
		t.Fatalf("bob's ✅ ran a plan the reloaded policy denies: %d runs", len(runs))
	}

	b.Engine.SetPolicyCode(nil)
	b.Engine.SetPolicy(context.Background(), b.Engine.Policy())
	s.WaitPost(t, req.Id, func(p *model.Post) bool {
		return p.Id == preview.Id && !strings.Contains(p.Message, "⛔") && strings.Contains(p.Message, "React ✅")
	})
}
