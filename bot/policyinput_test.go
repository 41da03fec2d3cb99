package bot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/executor"
)

// The input document carries what the preview shows, shaped for rules: the request and who
// asked (with the groups the platform confirms), each layer's changes with their risk marks,
// the risk counts, the declared values before and the time; the example rules judge it into
// a require, a deny and a warning, each naming its rule.
func TestThePolicyInputDocumentFeedsTheRules(t *testing.T) {
	p := samplePlan()
	p.Request = adapters.PostRef{Platform: "mattermost", Channel: "infra", ID: "p1"}
	p.Plan.Spec.PurgeData = true
	p.Plan.Layers = append(p.Plan.Layers, executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanChanges, Changes: []executor.Change{
		{Unit: "nextcloud", Action: executor.Replace, Address: "eoslab_volume.data", Forces: "format", DataLoss: true, Size: "200G",
			Attrs: "format \"xfs\" → \"ext4\"\nsize_gb 200"},
	}})
	alice := Person{Platform: "mattermost", ID: "u-alice", Name: "alice", Matches: []string{"alice", "group:dev"}}
	at := time.Date(2026, 11, 26, 14, 5, 0, 0, time.UTC)
	berlin, _ := time.LoadLocation("Europe/Berlin")
	in := policyInput(p, alice, map[string]map[string]string{"nextcloud": {"storage": "200G"}}, at, berlin)

	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"environment":"production"`, `"groups":["group:dev"]`, `"platform":"mattermost"`, `"id":"u-alice"`,
		`"data_loss":true`, `"forces":["format"]`, `"attrs":["format \"xfs\" → \"ext4\"","size_gb 200"]`, `"declared":{"nextcloud":{"storage":"200G"}}`,
		`"weekday":"Thursday"`, `"hour":15`, `"channel":"mattermost:infra"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the input document lacks %s:\n%s", want, raw)
		}
	}

	set, err := rego.Load(context.Background(), []string{"testdata/policies"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range set.Judge(context.Background(), in) {
		got = append(got, d.Kind+": "+d.String())
	}
	want := []string{
		"deny: only group:sre may purge data (eos.dataloss.deny, dataloss.rego:11)",
		"require: nextcloud loses data in production (eos.dataloss.require, dataloss.rego:4)",
		"warn: 1 replacements (eos.dataloss.warn, dataloss.rego:16)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("decisions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Every field name of the changes of the big plan's document (each layer's kinds of change,
// Nomad's tasks and fields among them) is one OPA shares: converting a change costs no
// allocation per field name. A field the builder adds without listing it in changeKeys
// fails here.
func TestEveryFieldOfAChangeIsSharedInOPA(t *testing.T) {
	doc := bigPlanInput()
	var check func(where string, x any)
	check = func(where string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				if !rego.Interned(k) {
					t.Errorf("%s: field %q is not in changeKeys", where, k)
				}
				if where == "nomad" {
					check(where, v)
				}
			}
		case []any:
			for _, v := range x {
				check(where, v)
			}
		}
	}
	for name, l := range doc["plan"].(map[string]any)["layers"].(map[string]any) {
		layer := l.(map[string]any)
		for k := range layer {
			if !rego.Interned(k) {
				t.Errorf("layer %s: field %q is not in changeKeys", name, k)
			}
		}
		for _, c := range layer["changes"].([]any) {
			check(name, c)
		}
	}
}
