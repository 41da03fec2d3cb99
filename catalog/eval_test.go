package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// evalJSON evaluates src with the functions and a few variables, and returns the result as JSON.
func evalJSON(t *testing.T, src string) (string, error) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "test.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing %s: %v", src, diags)
	}
	b := &Blueprint{Name: "svc"}
	flags := map[string]cty.Value{
		"storage": cty.StringVal("100G"),
		"unset":   cty.NullVal(cty.String),
		"nodes":   cty.ListVal([]cty.Value{cty.StringVal("n1"), cty.StringVal("n2")}),
	}
	v, diags := expr.Value(evalContext(b, "production", flags, nil))
	if diags.HasErrors() {
		return "", diags
	}
	g, err := toGo(v)
	if err != nil {
		return "", err
	}
	out, err := json.Marshal(g)
	return string(out), err
}

func TestEvalFunctions(t *testing.T) {
	cases := []struct{ src, want, err string }{
		{`gib(flag.storage)`, `100`, ""},
		{`gib("1.5T")`, `1536`, ""},
		{`gib("500M")`, `0.48828125`, ""},
		{`gib("+50G")`, `50`, ""},
		{`gib("lots")`, ``, `"lots" is not a size`},
		{`seconds("1h30m")`, `5400`, ""},
		{`seconds("2d")`, `172800`, ""},
		{`seconds("1500ms")`, `1.5`, ""},
		{`seconds("soon")`, ``, `"soon" is not a duration`},
		{`coalesce(flag.unset, "none")`, `"none"`, ""},
		{`join(",", flag.nodes)`, `"n1,n2"`, ""},
		{`upper(service.name)`, `"SVC"`, ""},
		{`format("%s-%s", env, service.name)`, `"production-svc"`, ""},
		{`contains(flag.nodes, "n2")`, `true`, ""},
		{`concat(flag.nodes, ["n3"])`, `["n1","n2","n3"]`, ""},
		{`{ a = 1, b = [true, null], c = { d = "x" } }`, `{"a":1,"b":[true,null],"c":{"d":"x"}}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.src, func(t *testing.T) {
			got, err := evalJSON(t, tc.src)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %s, %v; want an error containing %q", got, err, tc.err)
				}
				if !strings.HasPrefix(err.Error(), "test.hcl:1,") {
					t.Errorf("error %q does not carry the expression's position", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func TestToValue(t *testing.T) {
	cases := []struct {
		in   cty.Value
		want Value
	}{
		{cty.True, BoolValue(true)},
		{cty.NumberIntVal(3), Value{Type: Int, Int: 3, Text: "3"}},
		{cty.NumberFloatVal(2.5), StringValue(String, "2.5")},
		{cty.StringVal("nextcloud"), StringValue(String, "nextcloud")},
		{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), Value{Type: List, List: []string{"a", "b"}, Text: "a,b"}},
	}
	for _, tc := range cases {
		got, err := toValue(tc.in)
		if err != nil || got.Type != tc.want.Type || got.Text != tc.want.Text || got.Int != tc.want.Int || got.Bool != tc.want.Bool {
			t.Errorf("toValue(%#v) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	if _, err := toValue(cty.ObjectVal(map[string]cty.Value{"a": cty.True})); err == nil {
		t.Error("an object became a flag value")
	}
}
