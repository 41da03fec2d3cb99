package terraform

import (
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
)

// An attribute set straight from a variable is adopted by giving the variable the real value;
// one computed from a variable (a prefix added) or missing resources are refused, named.
func TestAdoptedVars(t *testing.T) {
	update := func(addr string, before, after map[string]any) *tfjson.ResourceChange {
		typ, name, _ := strings.Cut(addr, ".")
		return &tfjson.ResourceChange{Address: addr, Type: typ, Name: name, Mode: tfjson.ManagedResourceMode,
			Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionUpdate}, Before: before, After: after, AfterUnknown: map[string]any{}}}
	}
	ref := func(refs ...string) *tfjson.Expression {
		return &tfjson.Expression{ExpressionData: &tfjson.ExpressionData{References: refs}}
	}
	config := &tfjson.Config{RootModule: &tfjson.ConfigModule{Resources: []*tfjson.ConfigResource{
		{Address: "eoslab_server.main", Type: "eoslab_server", Name: "main", Expressions: map[string]*tfjson.Expression{
			"size": ref("var.server_size"), "name": ref("var.name"), "image": ref("var.image", "local.x")}},
	}}}
	vars := map[string]*tfjson.PlanVariable{"server_size": {Value: "small"}, "name": {Value: "grafana"}, "image": {Value: "debian-12"}}
	for _, tc := range []struct {
		name    string
		changes []*tfjson.ResourceChange
		want    map[string]any
		refused string
	}{
		{"size set from a variable", []*tfjson.ResourceChange{
			update("eoslab_server.main", map[string]any{"size": "xlarge", "name": "proxy-grafana"}, map[string]any{"size": "small", "name": "proxy-grafana"}),
		}, map[string]any{"name": "grafana", "server_size": "xlarge"}, ""},
		{"name computed from a variable", []*tfjson.ResourceChange{
			update("eoslab_server.main", map[string]any{"name": "proxy-other"}, map[string]any{"name": "proxy-grafana"}),
		}, nil, "eoslab_server.main name is not set from one variable"},
		{"image from two references", []*tfjson.ResourceChange{
			update("eoslab_server.main", map[string]any{"image": "debian-13"}, map[string]any{"image": "debian-12"}),
		}, nil, "eoslab_server.main image is not set from one variable"},
		{"deleted outside", []*tfjson.ResourceChange{
			{Address: "eoslab_server.main", Mode: tfjson.ManagedResourceMode, Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionCreate}}},
		}, nil, "eoslab_server.main is declared but missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &tfjson.Plan{Config: config, Variables: vars, ResourceChanges: tc.changes}
			got, refused := adoptedVars(p, map[string]any{"name": "grafana"})
			if tc.refused != "" {
				if len(refused) != 1 || refused[0] != tc.refused {
					t.Errorf("refused %q, want %q", refused, tc.refused)
				}
				return
			}
			if len(refused) > 0 || len(got) != len(tc.want) {
				t.Fatalf("vars %v, refused %q; want %v", got, refused, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("var %s = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}
