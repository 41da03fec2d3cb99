package terraform

import (
	"slices"
	"testing"

	"github.com/eosbot/eos/executor"
)

// A plan that would create an object another unit already owns fails before anyone can
// approve it, naming the object and its owner: here a server, and a DNS record (its name in
// its zone), that grafana in local created, planned again by grafana in staging. A unit that
// names its objects per environment plans cleanly beside it, and a unit planning its own
// objects again (an update) is not its own rival.
// Before, the plan said "+2" and the apply failed: "eoslab server "proxy-grafana" already
// exists … import the object".
func TestPlanThatCreatesAnotherUnitsObjectFailsNamingTheOwner(t *testing.T) {
	t.Parallel()
	l, _ := newEoslabLayer(t, nil)
	module := func(name string) map[string]string {
		return map[string]string{"main.tf": serverModule(name, `
resource "eoslab_dns_record" "main" {
  zone  = "local.test"
  name  = "`+name+`"
  type  = "A"
  value = "203.0.113.9"
}
`)}
	}
	in := func(env string, u executor.Unit) executor.Spec {
		s := spec(u)
		s.Env = env
		return s
	}
	local := in("local", unit("grafana", module("proxy-grafana"), map[string]any{"size": "small"}))
	mustApply(t, l, local, mustPlan(t, l, local))

	again := mustPlan(t, l, in("local", unit("grafana", module("proxy-grafana"), map[string]any{"size": "large"})))
	if len(again.Failures) > 0 {
		t.Errorf("an update of grafana in local clashes with itself: %v", again.Failures)
	}

	clash := mustPlan(t, l, in("staging", unit("grafana", module("proxy-grafana"), map[string]any{"size": "small"})))
	want := []string{
		"dns record proxy-grafana.local.test already exists (grafana in local)",
		"server proxy-grafana already exists (grafana in local)",
	}
	if !slices.Equal(clash.Failures, want) {
		t.Errorf("failures = %q, want %q", clash.Failures, want)
	}

	apart := mustPlan(t, l, in("staging", unit("grafana", module("proxy-grafana-staging"), map[string]any{"size": "small"})))
	if len(apart.Failures) > 0 || apart.Status != executor.PlanChanges {
		t.Errorf("a plan with names of its own: status %s, failures %v", apart.Status, apart.Failures)
	}
}
