package enginetest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// An answer the declared state alone decides ("not deployed: nothing to destroy") names the
// run under way on the service and what to do, instead of answering as if nothing ran: while
// run R creates authentik, `destroy authentik` used to say "nothing to destroy" and the create
// then finished.
func TestAnswerAboutAServiceNamesTheRunInFlight(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Delay: 700 * time.Millisecond})
	p, id := eostest.Preview(t, h, "alice", "@eos create nextcloud --sso")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id, "Terraform ⏳")

	after := h.Last()
	h.Say("carol", "@eos destroy nextcloud")
	got := h.WaitText(after, "nextcloud is not deployed in local: nothing to destroy.")
	want := "But run " + id + " is creating nextcloud in local right now"
	if !strings.Contains(got.Text, want) || !strings.Contains(got.Text, "@eos cancel "+id) || !strings.Contains(got.Text, "ask again when it is done") {
		t.Errorf("the answer does not name the run in flight and what to do (want %q and @eos cancel %s):\n%s", want, id, got.Text)
	}
	h.Idle()
	h.WaitText(p.ID, "Run "+id+" · done in")

	// With no run in flight the answer is as before.
	after = h.Last()
	h.Say("carol", "@eos destroy grafana")
	got = h.WaitText(after, "grafana is not deployed in local: nothing to destroy.")
	if strings.Contains(got.Text, "right now") {
		t.Errorf("an answer names a run when none is in flight:\n%s", got.Text)
	}
}

// A dependency a run brings in is named with the run's target; a plan that holds the lock
// while it plans again, before its run exists, is named too.
func TestAnswerAboutADependencyNamesTheRunThatHoldsIt(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	run := &store.Run{ID: "35087fd4", State: store.RunRunning, Verb: "create", Target: "nextcloud", Env: "local", Started: time.Now(),
		Keys: []string{"local/nextcloud", "local/authentik"}}
	if err := h.Store.StartRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	after := h.Last()
	h.Say("carol", "@eos update authentik --domain sso.example.org")
	got := h.WaitText(after, "authentik is not deployed in local yet.")
	if want := "But run 35087fd4 is creating nextcloud (and with it authentik) in local right now"; !strings.Contains(got.Text, want) {
		t.Errorf("the answer lacks %q:\n%s", want, got.Text)
	}
	if _, err := h.Store.TryLock(context.Background(), []string{"local/grafana"}, "cafebabe", time.Now()); err != nil {
		t.Fatal(err)
	}
	after = h.Last()
	h.Say("carol", "@eos destroy grafana")
	got = h.WaitText(after, "grafana is not deployed in local: nothing to destroy.")
	if want := "But run cafebabe is about to run on grafana in local right now"; !strings.Contains(got.Text, want) {
		t.Errorf("the answer lacks %q:\n%s", want, got.Text)
	}
}

// In an environment other than the default, the status command the answer suggests names it:
// `@eos status grafana` alone would answer about the default environment.
func TestAnswerAboutARunInFlightElsewhereSuggestsItsEnvironment(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"local", "staging"}})
	if _, err := h.Store.TryLock(context.Background(), []string{"staging/grafana"}, "cafebabe", time.Now()); err != nil {
		t.Fatal(err)
	}
	after := h.Last()
	h.Say("carol", "@eos destroy grafana in staging")
	got := h.WaitText(after, "grafana is not deployed in staging: nothing to destroy.")
	if want := "ask again when it is done (@eos status grafana in staging), or stop it with @eos cancel cafebabe."; !strings.Contains(got.Text, want) {
		t.Errorf("the answer lacks %q:\n%s", want, got.Text)
	}
}

// A preview planned while a run holds one of its services says so: it shows what is there
// before that run ends, and may change. Without a run in flight, no such line.
func TestAPreviewPlannedWhileARunHoldsItsServiceSaysSo(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	run := &store.Run{ID: "35087fd4", State: store.RunRunning, Verb: "create", Target: "nextcloud", Env: "local", Started: time.Now(),
		Keys: []string{"local/nextcloud", "local/authentik"}}
	if err := h.Store.StartRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	after := h.Last()
	h.Say("carol", "@eos plan nextcloud --sso")
	got := h.WaitText(after, "Preview only")
	want := "⚠ Planned while run 35087fd4 is creating nextcloud in local (since "
	if !strings.Contains(got.Text, want) || !strings.Contains(got.Text, "so it may change. Ask again once the run is done (@eos status nextcloud), or stop the run with @eos cancel 35087fd4.") {
		t.Errorf("the preview does not say it was planned while run 35087fd4 holds nextcloud:\n%s", got.Text)
	}
	after = h.Last()
	h.Say("carol", "@eos plan grafana")
	got = h.WaitText(after, "Preview only")
	if strings.Contains(got.Text, "Planned while") {
		t.Errorf("a preview names a run when none holds its service:\n%s", got.Text)
	}
}

// `drift SERVICE` while a run creates it says the run may change the answer, as destroy does.
func TestDriftOfAServiceARunCreatesNamesTheRun(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	if _, err := h.Store.TryLock(context.Background(), []string{"local/grafana"}, "cafebabe", time.Now()); err != nil {
		t.Fatal(err)
	}
	after := h.Last()
	h.Say("carol", "@eos drift grafana")
	got := h.WaitText(after, "Nothing matching is deployed, so nothing can drift.")
	if want := "But run cafebabe is about to run on grafana in local right now"; !strings.Contains(got.Text, want) {
		t.Errorf("the answer lacks %q:\n%s", want, got.Text)
	}
}

// `eos plan` (Engine.Preview) says so too.
func TestEosPlanWhileARunHoldsItsServiceSaysSo(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	if _, err := h.Store.TryLock(context.Background(), []string{"local/grafana"}, "cafebabe", time.Now()); err != nil {
		t.Fatal(err)
	}
	doc, err := h.Engine.Preview(context.Background(), "@eos create grafana", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Plain(); !strings.Contains(got, "⚠ Planned while run cafebabe is about to run on grafana in local") || !strings.Contains(got, "Ask again once the run is done") {
		t.Errorf("eos plan's preview does not name the run that holds grafana:\n%s", got)
	}
}
