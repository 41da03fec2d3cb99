package enginetest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// Each stored plan's policy input document is kept for eos policy replay, the one the rules
// judge (the request, who asked with the groups of the approval policy the platform says they
// are in, the plan layer by layer), with no policy in force recorded yet; a prune past the
// 30-day window forgets it.
func TestEachPlansPolicyInputIsKeptForReplay(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 23, 7, 59, 0, 0, time.UTC)
	clock := eostest.NewClock(start)
	h := eostest.New(t, eostest.Options{Clock: clock, Digests: []bot.Digest{
		{Name: "daily", Platform: "console", Channel: "local", Schedule: "0 8 * * *"},
	}, Policy: bot.Policy{Default: bot.EnvPolicy{Approvers: []string{"bob", "group:sre", "group:dev"}, Approvals: 1}, Envs: map[string]bot.EnvPolicy{}},
		ConsoleGroups: map[string][]string{"dev": {"alice"}, "sre": {"bob"}}})
	_, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.Engine.RunDueDigests(context.Background()) // the first call starts the schedule

	kept := func() []*store.PolicyInput {
		var out []*store.PolicyInput
		if err := h.Store.EachPolicyInput(context.Background(), time.Time{}, func(in *store.PolicyInput) error { out = append(out, in); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	got := kept()
	if len(got) != 1 || got[0].PlanID != id || got[0].Service != "grafana" || got[0].Env != "local" || !got[0].At.Equal(start) ||
		got[0].PolicySHA != "" || len(got[0].Decisions) != 0 {
		t.Fatalf("kept %+v, want plan %s's document, judged by no policy", got, id)
	}
	var doc struct {
		Request struct {
			Verb, Target string
			Requester    struct {
				Handle string
				Groups []string
			}
		}
		Plan struct {
			ID     string
			Layers map[string]struct {
				Changes []struct{ Address, Action string }
			}
		}
	}
	if err := json.Unmarshal(got[0].Input, &doc); err != nil {
		t.Fatal(err)
	}
	var addrs []string
	for _, c := range doc.Plan.Layers["terraform"].Changes {
		addrs = append(addrs, c.Action+" "+c.Address)
	}
	if doc.Request.Verb != "create" || doc.Request.Target != "grafana" || doc.Request.Requester.Handle != "alice" || doc.Plan.ID != id ||
		len(doc.Request.Requester.Groups) != 1 || doc.Request.Requester.Groups[0] != "group:dev" ||
		!strings.Contains(strings.Join(addrs, ","), "create eoslab_server.main") {
		t.Errorf("the kept document: %s", got[0].Input)
	}

	clock.Advance(31*24*time.Hour + 90*time.Second)
	if n := h.Engine.RunDueDigests(context.Background()); n != 1 { // a digest run prunes
		t.Fatalf("%d digests ran 31 days later, want 1", n)
	}
	if left := kept(); len(left) != 0 {
		t.Errorf("after 31 days, %d policy inputs are still kept", len(left))
	}
}

// A sensitive Terraform value never enters a kept input document: the document holds
// "(sensitive)" where the value would be, for the create and for an update that changes it.
func TestKeptPolicyInputsHoldNoSensitiveValue(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-api-key-never-shown"
	h := eostest.New(t, eostest.Options{CatalogDirs: []string{"testdata/sensitive"}})
	p, id := eostest.Preview(t, h, "alice", "@eos create apikey")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	_, uid := eostest.Preview(t, h, "alice", "@eos update apikey --label two")

	kept := map[string]string{}
	if err := h.Store.EachPolicyInput(context.Background(), time.Time{}, func(in *store.PolicyInput) error {
		kept[in.PlanID] = string(in.Input)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, pid := range []string{id, uid} {
		doc, ok := kept[pid]
		switch {
		case !ok:
			t.Errorf("plan %s's input document was not kept", pid)
		case strings.Contains(doc, secret):
			t.Errorf("plan %s's kept input document holds the sensitive value:\n%s", pid, doc)
		case !strings.Contains(doc, "(sensitive)"):
			t.Errorf("plan %s's kept input document does not mark the sensitive value:\n%s", pid, doc)
		}
	}
}

// With a policy set in force, the kept document is the one the set judged, recorded with the
// set's SHA-256 and what it decided: replay compares a candidate set against it.
func TestAKeptPolicyInputRecordsTheSetInForceAndItsDecisions(t *testing.T) {
	t.Parallel()
	set := eostest.PolicySet(t, "note.rego", `package eos.note

warn contains msg if {
	input.request.target == "grafana"
	msg := "grafana moves to the metrics stack next quarter"
}
`)
	h := eostest.New(t, eostest.Options{Policy: bobApprovesPolicy(), PolicyCode: set})
	_, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	var got []*store.PolicyInput
	if err := h.Store.EachPolicyInput(context.Background(), time.Time{}, func(in *store.PolicyInput) error { got = append(got, in); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].PlanID != id || got[0].PolicySHA != set.SHA256() {
		t.Fatalf("kept %+v, want plan %s's document judged by set %s", got, id, set.SHA256())
	}
	if d := got[0].Decisions; len(d) != 1 || d[0].Kind != "warn" || d[0].Msg != "grafana moves to the metrics stack next quarter" {
		t.Errorf("kept decisions %+v, want the set's one warning", d)
	}
	if !strings.Contains(string(got[0].Input), `"target":"grafana"`) {
		t.Errorf("kept document %s does not hold the request", got[0].Input)
	}
}
