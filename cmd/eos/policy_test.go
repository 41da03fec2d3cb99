package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// chatWith runs `eos chat` as alice with the configuration text, feeds it script and returns
// what it printed.
func chatWith(t *testing.T, config, script string) string {
	t.Helper()
	bin := eosBinary(t)
	data := t.TempDir()
	cmd := exec.Command(bin, "chat", "--user", "alice", "--config", writeTemp(t, config))
	cmd.Env = append(os.Environ(), "EOS_DATA_DIR="+data, "EOS_LOG_LEVEL=warn", "EOS_LISTEN=off",
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t))
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("eos chat: %v\n%s", err, out)
	}
	return string(out)
}

// Once a policy block is configured it is the whole policy: the built-in "local" environment
// (anyone approves, self-approval on) is gone, and `policy "default"` governs local too. Only
// bob's approval runs the plan, once.
func TestConfiguredPolicyReplacesBuiltins(t *testing.T) {
	out := chatWith(t, `policy "default" {
  approvers     = ["bob"]
  self_approval = false
}
`, "@eos create grafana\n/react 2 +1\n/as carol\n/react 2 +1\n/as bob\n/react 2 +1\n/wait\n@eos policy\n")
	for _, want := range []string{
		"@alice can't approve local plans",
		"@carol can't approve local plans (approvers: @bob)",
		"done in",
		"requesters: anyone · approvers: @bob · 1 approval · self-approval off · plans expire after 30m",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "Run "); n < 1 || strings.Count(out, "approved by @bob") < 1 || strings.Contains(out, "approved by @alice") || strings.Contains(out, "approved by @carol") {
		t.Errorf("the run should be approved by bob alone (%d runs):\n%s", n, out)
	}
}

// Once the configuration declares environments, a request for another one is refused with the
// list and a suggestion, and nothing is planned.
func TestUndeclaredEnvironmentIsRefused(t *testing.T) {
	out := chatWith(t, `policy "production" {
  approvers = ["bob"]
}
`, "@eos create grafana in prodution\n@eos status\n@eos policy production\n")
	for _, want := range []string{`unknown environment "prodution" — did you mean "production"? Environments: local, production.`,
		`To use another, declare it in the configuration: environments = ["local", "production", "prodution"]. Nothing changed.`} {
		if !strings.Contains(out, want) {
			t.Errorf("the typo was not refused with %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "React ✅ to approve") {
		t.Errorf("a plan was made for an undeclared environment:\n%s", out)
	}
	if !strings.Contains(out, "production | every verb | requesters: anyone · approvers: @bob") {
		t.Errorf("policy production does not show the rule:\n%s", out)
	}
}
