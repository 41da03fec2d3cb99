package enginetest_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
)

// The README's example rules compile and judge the README's example input document as it
// says: the DNS record's replacement warns, and the rule is named with its file and line.
func TestTheREADMEPolicyExampleJudgesItsInputDocument(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("```rego\n((?s:.*?))```\n").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README has no rego example")
	}
	set := eostest.PolicySet(t, "grafana.rego", string(m[1]))
	raw, err := os.ReadFile("testdata/policy_input.golden")
	if err != nil {
		t.Fatal(err)
	}
	var in map[string]any
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range set.Judge(context.Background(), in) {
		got = append(got, d.Kind+": "+d.String())
	}
	want := "warn: a DNS name changes: caches may serve the old one for a while (eos.grafana.warn, grafana.rego:20)"
	if strings.Join(got, "\n") != want {
		t.Errorf("the README's rules on its input document:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if !strings.Contains(string(readme), "(eos.grafana.deny, grafana.rego:5)") {
		t.Error("the README names the deny rule's line wrongly")
	}
	in["request"].(map[string]any)["verb"] = "destroy"
	if d := set.Judge(context.Background(), in); len(d) == 0 || d[0].String() != "grafana stays: it holds the on-call dashboards (eos.grafana.deny, grafana.rego:5)" {
		t.Errorf("the README's deny on a destroy: %+v", d)
	}
}
