package bot

import (
	"reflect"
	"testing"

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
