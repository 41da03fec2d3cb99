package bot

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/executor"
)

// A Terraform change's attribute lines become values before and after it as data: JSON
// decoded, a value Terraform cannot show kept as its words (a sensitive one stays masked), a
// delete's values as what was before; another layer's lines are not read as Terraform's.
func TestTerraformAttributeLinesBecomeData(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		layer         executor.LayerName
		c             executor.Change
		before, after map[string]any
	}{
		{"create", executor.Terraform, executor.Change{Action: executor.Create,
			Attrs: "name = \"web\"\nrules = [{\"port\":\"22\",\"source_ips\":[\"0.0.0.0/0\"]}]\ntoken = (sensitive)\nip = (known after apply)"},
			map[string]any{}, map[string]any{"name": "web", "rules": []any{map[string]any{"port": "22", "source_ips": []any{"0.0.0.0/0"}}},
				"token": "(sensitive)", "ip": "(known after apply)"}},
		{"update in the detail", executor.Terraform, executor.Change{Action: executor.Update, Detail: `size "small" → "large", disk 20 → 40`},
			map[string]any{"size": "small", "disk": 20.0}, map[string]any{"size": "large", "disk": 40.0}},
		{"delete", executor.Terraform, executor.Change{Action: executor.Delete, Attrs: `name = "web"`},
			map[string]any{"name": "web"}, map[string]any{}},
		{"nomad", executor.Nomad, executor.Change{Action: executor.Update, Attrs: `task web Config.image "a" → "b"`},
			map[string]any{}, map[string]any{}},
	} {
		before, after := attrValues(tc.layer, tc.c)
		if !reflect.DeepEqual(before, tc.before) || !reflect.DeepEqual(after, tc.after) {
			t.Errorf("%s: before %v after %v; want %v, %v", tc.name, before, after, tc.before, tc.after)
		}
	}
}

// A document kept before Terraform changes carried their values as data (no `before` and
// `after`), upgraded as `eos policy replay` upgrades it, is the document built now, and the
// example library (examples/policies: public_ssh reads c.after.rules) decides the same on it:
// 11 denies, 2 requires, 10 warnings on the big plan of the benchmark.
func TestAKeptPolicyInputWithoutValuesDecidesAsOneBuiltNow(t *testing.T) {
	t.Parallel()
	now := bigPlanInput()
	raw, err := json.Marshal(now)
	if err != nil {
		t.Fatal(err)
	}
	var current, old any
	if err := json.Unmarshal(raw, &current); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	tf := old.(map[string]any)["plan"].(map[string]any)["layers"].(map[string]any)["terraform"].(map[string]any)
	for _, c := range tf["changes"].([]any) {
		delete(c.(map[string]any), "before")
		delete(c.(map[string]any), "after")
	}
	set, err := rego.Load(context.Background(), []string{filepath.Join("..", "examples", "policies")}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := set.Judge(context.Background(), current)
	if len(want) != 23 {
		t.Fatalf("the examples decide %d times on the big plan, want 23", len(want))
	}
	if without := set.Judge(context.Background(), old); reflect.DeepEqual(without, want) {
		t.Fatal("the examples decide the same without the values: this test would not see an upgrade that does nothing")
	}
	UpgradeKeptPolicyInput(old)
	if !reflect.DeepEqual(old, current) {
		t.Fatal("the upgraded document is not the document built now")
	}
	if got := set.Judge(context.Background(), old); !reflect.DeepEqual(got, want) {
		t.Errorf("on the upgraded document the examples decide\n%v\nwant\n%v", got, want)
	}
}
