package e2e_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

// The shipped example library (examples/policies), loaded as policy_dirs loads it, judging
// real eoslab Terraform plans against the real Mattermost: a production bastion whose firewall
// opens SSH to the world is answered with ⛔ and public_ssh's message, and bob's ✅ runs
// nothing; the same bastion open to an admin network only is approved and runs. The bastion
// blueprint is the engine tests' (enginetest/testdata/policyexamples), not a shipped one.
func TestE2EMattermostShippedExamplePolicyDenies(t *testing.T) {
	t.Parallel()
	s := mmtest.Real(t)
	ch := s.Channel(t, "e2e-policy-examples")
	set, err := rego.Load(context.Background(), []string{filepath.Join("..", "..", "examples", "policies")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := startMMBot(t, s, ch, eostest.Options{Policy: bobApprovesMM(), PolicyCode: set, Environments: []string{"production", "staging"},
		CatalogDirs: []string{filepath.Join("..", "enginetest", "testdata", "policyexamples")}})

	deniedOnMM(t, s, b, ch, "@eos create bastion in production",
		"bastion: eoslab_firewall.main opens SSH (port 22) to 0.0.0.0/0 in production: allow only your admin network (or a VPN) on port 22 (eos.public_ssh.deny, public_ssh.rego:")

	req2, preview2, id2 := ask(t, s, ch, s.Alice, "@eos create bastion --ssh-from 10.8.0.0/16 in production")
	if strings.Contains(preview2.Message, "⛔") {
		t.Fatalf("SSH open to an admin network only is denied:\n%s", preview2.Message)
	}
	s.Bob.React(t, preview2.Id, "white_check_mark")
	botSays(t, s, req2.Id, "Run "+id2+" · done in")
	b.Idle()
	if r, err := b.Store.Run(context.Background(), id2); err != nil || r.State != store.RunDone {
		t.Fatalf("run %s = %+v, %v; want done", id2, r, err)
	}
}
