package main

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/executor"
)

// A risk block beside the verb blocks reaches the engine's policy; a risk Eos does not know is
// refused with the ones it does.
func TestConfigFilePolicyWithRisk(t *testing.T) {
	cfg, err := loadConfig(writeTemp(t, `
policy "production" {
  approvers = ["bob"]
  risk "data-loss" {
    approvals = 2
    approvers = ["bob", "dave"]
  }
}
`))
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.policy()
	if err != nil {
		t.Fatal(err)
	}
	loses := executor.Plan{Spec: executor.Spec{Verb: "update", Env: "production"},
		Layers: []executor.LayerPlan{{Changes: []executor.Change{{Action: executor.Replace, DataLoss: true}}}}}
	if rules := p.Rules(loses); len(rules) != 2 || rules[1].Approvals != 2 || len(rules[1].Approvers) != 2 || rules[1].Because == "" {
		t.Errorf("a data-loss plan in production = %+v", rules)
	}
	if ep := p.For("production", "update"); ep.Approvals != 1 || len(ep.Approvers) != 1 {
		t.Errorf("update in production = %+v", ep)
	}
	_, err = mustLoad(t, `policy "production" {
  risk "data-lost" { approvals = 2 }
}`).policy()
	if err == nil || !strings.Contains(err.Error(), `unknown risk "data-lost"; a policy can name `+strings.Join(bot.Risks, ", ")) {
		t.Errorf("an unknown risk was accepted: %v", err)
	}
	if _, err := loadConfig(writeTemp(t, `policy "x" {
  risk "data-loss" { requesters = ["bob"] }
}`)); err == nil || !strings.Contains(err.Error(), "requesters") {
		t.Errorf("requesters in a risk block were accepted (the risk is known only once planned): %v", err)
	}
}

func mustLoad(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := loadConfig(writeTemp(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
