package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// grafana in local, then in staging, on the real Salt master and minion: staging's plan has
// Salt changes of its own (its files under srv/grafana-staging), applies cleanly beside
// local's, and each environment's configuration names its own domain.
// Before, staging's Salt row said "no changes": it compared against local's files at
// srv/grafana, and its Terraform apply failed on local's firewall and server.
func TestSaltSecondEnvironmentGetsFilesOfItsOwn(t *testing.T) {
	layer, minion, data := eostest.SaltLayer(t)
	roots := map[string]string{}
	for _, env := range []string{"local", "staging"} {
		roots[env] = filepath.Join(data, "srv", "grafana-"+env)
		os.RemoveAll(roots[env])
		t.Cleanup(func() { os.RemoveAll(roots[env]) })
	}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{layer}, Environments: []string{"staging"}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done")

	p, id = eostest.Preview(t, h, "alice", "@eos create grafana in staging")
	for _, want := range []string{"Salt      | +2 ~0 −0 on " + minion + ": ", "Terraform | +3 ~0 −0"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("staging's preview lacks %q:\n%s", want, p.Text)
		}
	}
	after := h.Last()
	h.Say("alice", "@eos plan "+id+" full")
	if full := h.WaitText(after, "Plan "+id); !strings.Contains(full.Text, roots["staging"]) && !strings.Contains(full.Text, "srv/grafana-staging") {
		t.Errorf("staging's full plan does not name its own files:\n%s", full.Text)
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done", "Salt ✅", "Terraform ✅ +3")
	for env, domain := range map[string]string{"local": "grafana.local.test", "staging": "grafana.staging.test"} {
		b, err := os.ReadFile(filepath.Join(roots[env], "grafana.ini"))
		if err != nil || !strings.Contains(string(b), "domain="+domain) {
			t.Errorf("%s's grafana.ini = %q, %v; want domain=%s", env, b, err, domain)
		}
	}
}
