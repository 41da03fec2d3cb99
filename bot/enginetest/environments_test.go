package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// openPlans counts the plans in h's store that are not finished.
func openPlans(t *testing.T, h *eostest.Harness) int {
	t.Helper()
	ps, err := h.Store.OpenPlans(context.Background(), func(*store.Plan) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	return len(ps)
}

// Without a configuration the only environment is the default one: a typo of another
// (`in prodution`) is refused with the environments there are and how to declare one, and
// plans nothing.
func TestWithoutConfigurationOnlyTheDefaultEnvironmentExists(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	after := h.Last()
	h.Say("alice", "@eos create grafana in prodution")
	got := h.WaitText(after, `unknown environment "prodution"`).Text
	for _, want := range []string{`unknown environment "prodution". Environments: local.`, `environments = ["local", "prodution"]`, "Nothing changed."} {
		if !strings.Contains(got, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, got)
		}
	}
	after = h.Last()
	h.Say("alice", "@eos create grafana in locl")
	h.WaitText(after, `unknown environment "locl" — did you mean "local"?`)
	if n := openPlans(t, h); n != 0 {
		t.Errorf("%d plans were made for environments nobody declared", n)
	}
	if _, err := h.Engine.Preview(t.Context(), "@eos create grafana in prodution", "alice"); err == nil {
		t.Error("eos plan previews a create in an environment nobody declared")
	}
}

// Policy blocks and the environments list declare environments; the default one always is.
func TestDeclaredEnvironmentsAreAddressable(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"staging"}, Policy: bot.Policy{
		Default: bot.EnvPolicy{Approvals: 1, TTL: time.Hour},
		Envs:    map[string]bot.EnvPolicy{"production": {Approvals: 2}},
	}})
	for _, env := range []string{"local", "staging", "production"} {
		eostest.Preview(t, h, "alice", "@eos create grafana in "+env)
	}
	after := h.Last()
	h.Say("alice", "@eos create grafana in prod")
	h.WaitText(after, `unknown environment "prod" — did you mean "production"? Environments: local, production, staging.`)
}

// An environment that holds services stays addressable once a configuration declares others:
// what runs there can be seen and destroyed, under the default rule (self-approval off, even
// for local), and nothing new can be planned there.
func TestAPopulatedEnvironmentLeftOutStaysDestroyable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := eostest.New(t, eostest.Options{DataDir: dir})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	h.Stop()

	// The built-in policy, with another default environment: local is no longer declared.
	h2 := eostest.New(t, eostest.Options{DataDir: dir, DefaultEnv: "staging", Environments: []string{"production"}})
	ask := func(text string, want ...string) string {
		t.Helper()
		after := h2.Last()
		h2.Say("alice", text)
		return h2.WaitText(after, want...).Text
	}
	got := ask("@eos create jenkins in local", "local is not a declared environment")
	for _, want := range []string{"grafana", "only destroy, status, drift and history work there", "Nothing changed."} {
		if !strings.Contains(got, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, got)
		}
	}
	for _, text := range []string{"@eos update grafana --port 3002 in local", "@eos reconcile grafana in local", "@eos rollback grafana in local"} {
		ask(text, "local is not a declared environment")
	}
	if n := openPlans(t, h2); n != 0 {
		t.Fatalf("%d plans were made in an environment left out", n)
	}
	ask("@eos status in local", "Deployed in local", "grafana")
	ask("@eos history grafana in local", "grafana")

	// Its drift can be looked at; a 🔧 on it plans no reconcile there.
	resizeServer(t, h2, "proxy-grafana-local", "xlarge")
	after := h2.Last()
	h2.Say("alice", "@eos drift grafana in local")
	drift := h2.WaitText(after, "1 of 1 services drifted")
	after = h2.Last()
	h2.React("alice", drift.ID, "🔧")
	h2.WaitText(after, "local is not a declared environment, but it still holds grafana")
	resizeServer(t, h2, "proxy-grafana-local", "small")

	if n := openPlans(t, h2); n != 0 {
		t.Fatalf("%d plans were made in an environment left out", n)
	}
	d, id := eostest.Preview(t, h2, "alice", "@eos destroy grafana in local")
	if !strings.Contains(d.Text, "destroy grafana in local") || !strings.Contains(d.Text, "not @alice (asked)") {
		t.Errorf("the destroy is not judged by the default rule (self-approval off):\n%s", d.Text)
	}
	h2.React("alice", d.ID, "+1")
	h2.React("bob", d.ID, "+1")
	h2.WaitText(d.ID, "Run "+id+" · done in")

	// Empty now, local is gone like any other undeclared environment.
	ask("@eos status in local", `unknown environment "local"`)
}

// status lists every environment's services under its own heading, and an empty answer says
// which environment it is about.
func TestStatusGroupsServicesByEnvironment(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"staging", "production"}})
	ask := func(text string, want ...string) string {
		t.Helper()
		after := h.Last()
		h.Say("alice", text)
		return h.WaitText(after, want...).Text
	}
	ask("@eos status in staging", "Nothing is deployed in staging.")
	ask("@eos status grafana in staging", "grafana is not deployed in staging.")
	// Two services: the shipped blueprints name their cloud objects without the environment.
	for _, text := range []string{"@eos create grafana in local", "@eos create jenkins in staging"} {
		p, id := eostest.Preview(t, h, "alice", text)
		h.React("bob", p.ID, "+1")
		h.WaitText(p.ID, "Run "+id+" · done in")
	}
	all := ask("@eos status", "Deployed in local", "grafana", "Deployed in staging", "jenkins")
	if strings.Index(all, "Deployed in local") > strings.Index(all, "Deployed in staging") {
		t.Errorf("environments are not in order:\n%s", all)
	}
	ask("@eos status in production", "Nothing is deployed in production.")
	if one := ask("@eos status in staging", "Deployed in staging"); strings.Contains(one, "Deployed in local") {
		t.Errorf("status in staging shows local:\n%s", one)
	}
}
