package nomad

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

const varsTemplate = `# a comment that must survive
variable "name" {
  type = string
}

variable "tags" {
  type    = list(string)
  default = ["old"]
}

variable "labels" {
  type = map(string)
}

variable "count" {
  type = number
}

variable "on" {
  type = bool
}

job "x" {
  meta {
    name = var.name
  }
}
`

// boundDefault binds vars to varsTemplate and evaluates the default of variable name, as an
// HCL parser (Nomad's included) would read it.
func boundDefault(t *testing.T, vars map[string]any, name string) (cty.Value, string) {
	t.Helper()
	out, err := bindVariables(varsTemplate, vars, nil)
	if err != nil {
		t.Fatalf("bindVariables: %v", err)
	}
	f, diags := hclsyntax.ParseConfig([]byte(out), "out.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("the bound template does not parse: %v\n%s", diags, out)
	}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type != "variable" || b.Labels[0] != name {
			continue
		}
		a := b.Body.Attributes["default"]
		if a == nil {
			t.Fatalf("variable %s has no default in\n%s", name, out)
		}
		v, diags := a.Expr.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("evaluating the default of %s: %v\n%s", name, diags, out)
		}
		return v, out
	}
	t.Fatalf("no variable %s in\n%s", name, out)
	return cty.NilVal, ""
}

func TestBindVariablesStringsArriveLiterally(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`plain`,
		``,
		`say "hi"`,
		"two\nlines\r\n\tand a tab",
		`${foo}`,
		`%{ if true }yes%{ endif }`,
		`$${already escaped}`,
		`$$${triple}`,
		`trailing $`,
		`back\slash\\ and \n literal`,
		"control \x01 \x7f char",
		"unicode é ✓ 🚀",
		`" } job "evil" { `,
		"EOT\n<<EOT\nheredoc",
	} {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			v, out := boundDefault(t, map[string]any{"name": s}, "name")
			if v.Type() != cty.String || v.AsString() != s {
				t.Errorf("default = %#v, want the string %q\n%s", v, s, out)
			}
		})
	}
}

func TestBindVariablesTypedValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		val  any
		want cty.Value
	}{
		{"tags", []any{"a", "${b}", `"c"`}, cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("${b}"), cty.StringVal(`"c"`)})},
		{"tags", []string{}, cty.EmptyTupleVal},
		{"labels", map[string]any{"plain": "1", "with space": "2", "${k}": "%{v}"}, cty.ObjectVal(map[string]cty.Value{
			"plain": cty.StringVal("1"), "with space": cty.StringVal("2"), "${k}": cty.StringVal("%{v}")})},
		{"count", int64(9007199254740993), cty.MustParseNumberVal("9007199254740993")},
		{"count", 2.5, cty.NumberFloatVal(2.5)},
		{"count", -3, cty.NumberIntVal(-3)},
		{"on", true, cty.True},
		{"on", false, cty.False},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, out := boundDefault(t, map[string]any{tt.name: tt.val}, tt.name)
			if !v.RawEquals(tt.want) {
				t.Errorf("default = %#v, want %#v\n%s", v, tt.want, out)
			}
		})
	}
}

func TestBindVariablesKeepsTheRestAndReplacesDefaults(t *testing.T) {
	t.Parallel()
	out, err := bindVariables(varsTemplate, map[string]any{"tags": []any{"new"}}, nil)
	if err != nil {
		t.Fatalf("bindVariables: %v", err)
	}
	if strings.Contains(out, `"old"`) {
		t.Errorf("the old default is still there:\n%s", out)
	}
	if strings.Count(out, "default") != 1 {
		t.Errorf("want exactly one default attribute:\n%s", out)
	}
	for _, keep := range []string{"# a comment that must survive\n", "job \"x\" {\n  meta {\n    name = var.name\n  }\n}\n"} {
		if !strings.Contains(out, keep) {
			t.Errorf("output lost %q:\n%s", keep, out)
		}
	}
	same, err := bindVariables(varsTemplate, nil, nil)
	if err != nil || same != varsTemplate {
		t.Errorf("binding nothing changed the template (err %v):\n%s", err, same)
	}
}

func TestBindVariablesErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		template string
		vars     map[string]any
		want     string
	}{
		{"undeclared", varsTemplate, map[string]any{"nope": "x"}, `declares no variable "nope"`},
		{"bad syntax", "job \"x\" {", nil, "parsing the job template"},
		{"unencodable", varsTemplate, map[string]any{"name": func() {}}, `variable "name": encoding the value`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := bindVariables(tt.template, tt.vars, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestEosVariables: the secrets path Eos offers is bound to a template that declares it, with
// the unit's environment and service filled in, skipped for one that does not, and a
// blueprint's own value for it is refused.
func TestEosVariables(t *testing.T) {
	t.Parallel()
	l, err := New(Config{Address: "http://127.0.0.1:1", SecretsPath: "kv/data/eos/{env}/{service}"})
	if err != nil {
		t.Fatal(err)
	}
	eos := l.eosVars("staging", "grafana")
	declares := varsTemplate + "\nvariable \"vault_secrets_path\" {\n  type    = string\n  default = \"\"\n}\n"
	out, err := bindVariables(declares, nil, eos)
	if err != nil || !strings.Contains(out, `default = "kv/data/eos/staging/grafana"`) {
		t.Errorf("declared: err %v, template\n%s", err, out)
	}
	if out, err := bindVariables(varsTemplate, nil, eos); err != nil || out != varsTemplate {
		t.Errorf("undeclared: err %v, template changed:\n%s", err, out)
	}
	_, err = bindVariables(declares, map[string]any{VaultSecretsPathVar: "secret/data/eos/production/other"}, eos)
	if err == nil || !strings.Contains(err.Error(), "set by Eos") {
		t.Errorf("a blueprint's own vault_secrets_path: err = %v, want a refusal", err)
	}
	if _, err := New(Config{Address: "http://127.0.0.1:1", SecretsPath: "secret/data/eos/shared"}); err == nil {
		t.Error("a SecretsPath without {service} was accepted")
	}
}
