package enginetest_test

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// rollback names the run it returns to and when, skips a reconcile that re-applied the
// current values (before, it returned to the state before the latest reconcile and answered
// "Nothing to change"), and `rollback SERVICE to RUN` returns to the run named.
func TestRollbackNamesTheRunItReturnsTo(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	run := func(text string) string {
		t.Helper()
		p, id := eostest.Preview(t, h, "alice", text)
		h.React("bob", p.ID, "+1")
		h.WaitText(p.ID, "Run "+id+" · done in")
		return id
	}
	created := run("@eos create grafana --port 3001")
	updated := run("@eos update grafana --port 3002")
	resizeServer(t, h, "proxy-grafana-local", "xlarge") // drift, so the reconcile has something to re-apply
	run("@eos reconcile grafana")

	rb, _ := eostest.Preview(t, h, "alice", "@eos rollback grafana")
	for _, want := range []string{"rollback grafana to " + created + " in local", "Returns to the state run " + created + " of ",
		"Declared values: --port 3002 → 3001 (Nomad)"} {
		if !strings.Contains(rb.Text, want) {
			t.Errorf("rollback preview lacks %q:\n%s", want, rb.Text)
		}
	}
	after := h.Last()
	h.Say("alice", "@eos rollback grafana to "+updated)
	h.WaitText(after, "Run "+updated+" applied the values grafana has now in local: nothing to roll back")
	after = h.Last()
	h.Say("alice", "@eos rollback grafana to deadbeef")
	h.WaitText(after, "Run deadbeef did not apply grafana in local", "@eos history grafana")
	to, _ := eostest.Preview(t, h, "alice", "@eos rollback grafana to "+created)
	if !strings.Contains(to.Text, "rollback grafana to "+created+" in local") {
		t.Errorf("rollback to %s previewed:\n%s", created, to.Text)
	}
}

// A suggestion names the environment the request was about: "update grafana … in staging" of
// a service not deployed there suggests creating it in staging, not in the default one.
func TestSuggestionsKeepTheEnvironment(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"staging"}})
	after := h.Last()
	h.Say("alice", "@eos update grafana --port 3002 in staging")
	h.WaitText(after, "grafana is not deployed in staging yet. To deploy it: @eos create grafana (with the same flags) in staging")
}
