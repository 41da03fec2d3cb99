package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
)

// Issue 26, point 1, on a real Mattermost server: grafana in local and grafana in staging, one
// service in each environment, both planned, approved by bob and run, side by side in the
// simulated cloud. Before, staging's plan offered approval and its apply failed on local's
// firewall and server ("already exists … import the object").
func TestE2EMattermostTwoEnvironmentsBothRun(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-two-envs")
	b := startMMBot(t, s, ch, eostest.Options{Environments: []string{"staging"}})
	for _, env := range []string{"local", "staging"} {
		req, preview, id := ask(t, s, ch, s.Alice, "@eos create grafana in "+env)
		if !strings.Contains(preview.Message, "create grafana in "+env) || strings.Contains(preview.Message, "⛔") {
			t.Errorf("the %s preview:\n%s", env, preview.Message)
		}
		s.Bob.React(t, preview.Id, "+1")
		botSays(t, s, req.Id, "Run "+id+" · done in", "Terraform ✅ +3")
	}
	b.Idle()
	for _, f := range []string{"server/proxy-grafana-local.json", "server/proxy-grafana-staging.json",
		"dns_record/grafana.local.test_A.json", "dns_record/grafana.staging.test_A.json"} {
		if _, err := os.Stat(filepath.Join(b.Cloud(), f)); err != nil {
			t.Errorf("the simulated cloud lacks %s: %v", f, err)
		}
	}
}
