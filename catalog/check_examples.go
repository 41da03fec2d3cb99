package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// checkExamples renders the blueprint twice, with its defaults and with every flag set to an
// example value, and checks the Terraform and Nomad variables it produces against the types the
// templates declare: what `terraform plan` and Nomad would refuse at deploy time.
func (f *folder) checkExamples(c *Catalog) Diagnostics {
	b := f.b
	var diags Diagnostics
	for _, ex := range exampleRequests(c, b) {
		r, err := b.Render(ex.req)
		if err != nil {
			// The other example would most likely fail the same way.
			return append(diags, f.renderProblem(err, ex.what))
		}
		if r.Terraform != nil {
			diags = append(diags, f.checkTerraformTypes(r.Terraform.Vars)...)
		}
		if r.Nomad != nil {
			diags = append(diags, f.checkNomadTypes(r.Nomad.Vars)...)
		}
	}
	return append(diags, f.checkVariantsRender(c)...)
}

// checkVariantsRender renders the defaults once more for every other variant a Salt state or
// Nomad job has (their holds_data and pillar are evaluated per variant), so a mistake there is
// found now, not by the first request for production.
func (f *folder) checkVariantsRender(c *Catalog) Diagnostics {
	b := f.b
	exs := exampleRequests(c, b)
	if len(exs) == 0 {
		return nil
	}
	seen := map[string]bool{DefaultVariant: true}
	for _, vs := range [][]Variant{b.SaltVariants, b.NomadVariants} {
		for _, v := range vs {
			if seen[v.Name] {
				continue
			}
			seen[v.Name] = true
			req := exs[0].req
			req.Variant = v.Name
			if _, err := b.Render(req); err != nil {
				return Diagnostics{f.renderProblem(err, exs[0].what+" in variant "+v.Name)}
			}
		}
	}
	return nil
}

type example struct {
	req  Request
	what string // "its defaults", for messages
}

// exampleRequests are the defaults (with required flags and arguments given), and every flag
// set: bools true, the rest their default or an example of their type.
func exampleRequests(c *Catalog, b *Blueprint) []example {
	args := make([]Value, len(b.Args))
	for i := range b.Args {
		args[i] = exampleFlag(c, b, b.Args[i].AsFlag())
	}
	defaults, all := map[string]Value{}, map[string]Value{}
	var given []string
	differs := false
	for _, fl := range b.Flags {
		switch {
		case fl.Secret:
			continue
		case fl.Required:
			defaults[fl.Name] = exampleFlag(c, b, &fl)
		}
		v := exampleFlag(c, b, &fl)
		if fl.Default != nil && fl.Type != Bool {
			v = *fl.Default
		}
		differs = differs || !fl.Required && (fl.Default == nil || fl.Default.Text != v.Text)
		all[fl.Name] = v
		given = append(given, "--"+fl.Name+" "+v.Text)
	}
	out := []example{{Request{Flags: defaults, Args: args, Env: "check"}, "its defaults"}}
	if differs {
		out = append(out, example{Request{Flags: all, Args: args, Env: "check"}, "example values " + strings.Join(given, " ")})
	}
	return out
}

// exampleValue is a value of type t that parses: the first of an enum's values, a service of
// the catalog, a plausible word for the rest.
func exampleValue(c *Catalog, b *Blueprint, t Type, values []string) Value {
	text := map[Type]string{
		Bool: "true", Int: "1", Port: "8080", String: "example", Size: "10G", Duration: "1h",
		Hostname: "example.local.test", Path: "/srv/example", List: "one,two",
	}[t]
	switch t {
	case Enum:
		if len(values) > 0 {
			text = values[0]
		}
	case Service:
		text = b.Name
		if names := c.ServiceNames(); len(names) > 0 {
			text = names[0]
		}
	}
	v, err := ParseValue(t, text)
	if err != nil {
		return StringValue(t, text)
	}
	return v
}

// exampleFlag is exampleValue within the flag's (or argument's) bounds: its min when it has
// one, else its max when the example is above it; for a pattern the example does not match, the
// shortest text the pattern builds (patternExample). One neither matches is left for Render to
// report.
func exampleFlag(c *Catalog, b *Blueprint, fl *Flag) Value {
	v := exampleValue(c, b, fl.Type, fl.Values)
	switch {
	case fl.Min != nil:
		return *fl.Min
	case fl.Max != nil && v.amount() > fl.Max.amount():
		return *fl.Max
	case fl.Pattern != "" && fl.Check(v) != nil:
		if text, ok := patternExample(fl.Pattern); ok {
			if w, err := ParseValue(fl.Type, text); err == nil && fl.Check(w) == nil {
				return w
			}
		}
	}
	return v
}

// patternExample builds a short text that an RE2 pattern matches: each alternation's first
// branch, each repetition's least count (at least one for +), each character class's first
// printable character. ok is false when it cannot (an empty class, anchors inside).
func patternExample(p string) (string, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	var build func(re *syntax.Regexp) bool
	build = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpEmptyMatch, syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine,
			syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			return true
		case syntax.OpLiteral:
			b.WriteString(string(re.Rune))
			return true
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				for r := re.Rune[i]; r <= re.Rune[i+1] && r < re.Rune[i]+128; r++ {
					if unicode.IsPrint(r) && r != ' ' {
						b.WriteRune(r)
						return true
					}
				}
			}
			return false
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('x')
			return true
		case syntax.OpCapture:
			return build(re.Sub[0])
		case syntax.OpStar, syntax.OpQuest:
			return true
		case syntax.OpPlus:
			return build(re.Sub[0])
		case syntax.OpRepeat:
			for range re.Min {
				if !build(re.Sub[0]) {
					return false
				}
			}
			return true
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				if !build(sub) {
					return false
				}
			}
			return true
		case syntax.OpAlternate:
			return len(re.Sub) > 0 && build(re.Sub[0])
		}
		return false
	}
	if !build(re) {
		return "", false
	}
	return b.String(), true
}

// renderProblem reports a failed render: at the expression's position when the blueprint is at
// fault, at the manifest otherwise.
func (f *folder) renderProblem(err error, what string) Diagnostic {
	var diags Diagnostics
	if errors.As(err, &diags) && len(diags) > 0 {
		d := diags[0]
		d.Message += " (rendering with " + what + ")"
		return d
	}
	return Diagnostic{File: f.display(manifestName), Message: fmt.Sprintf("rendering with %s: %v", what, err)}
}

// checkTerraformTypes converts each variable's value (as terraform.tfvars.json carries it) to
// the type every variant declares for it. A mismatch is reported at the manifest's key.
func (f *folder) checkTerraformTypes(vars map[string]any) Diagnostics {
	mods, _ := f.inspectVariants()
	keys, _ := staticKeys(f.b.Terraform.Data)
	var diags Diagnostics
	for _, name := range sortedKeys(vars) {
		where := map[string][]string{} // type text → module paths declaring it
		for _, m := range mods {
			if v, ok := m.mod.Variables[name]; ok && v.Type != "" {
				where[v.Type] = append(where[v.Type], m.variant.Path)
			}
		}
		for _, typ := range sortedKeys(where) {
			ty, ok := parseType([]byte(typ))
			if !ok {
				continue // terraform validate reports a bad type constraint
			}
			if err := fits(vars[name], ty); err != nil {
				diags = append(diags, at(keyRange(keys, name, f.b.Terraform.Range), "terraform variable %q is %s in %s, but the manifest gives it %s: %v",
					name, typ, strings.Join(where[typ], " and "), jsonText(vars[name]), err))
			}
		}
	}
	return diags
}

// parseType reads a type constraint such as number or list(string).
func parseType(src []byte) (cty.Type, bool) {
	expr, hds := hclsyntax.ParseExpression(src, "", hcl.InitialPos)
	if hds.HasErrors() {
		return cty.NilType, false
	}
	return typeExpr(expr)
}

func typeExpr(expr hcl.Expression) (cty.Type, bool) {
	ty, hds := typeexpr.TypeConstraint(expr)
	return ty, !hds.HasErrors()
}

// fits converts v, through JSON as the layers hand it over, to type ty. Null fits any type.
func fits(v any, ty cty.Type) error {
	if v == nil {
		return nil
	}
	js, err := json.Marshal(v)
	if err != nil {
		return err
	}
	implied, err := ctyjson.ImpliedType(js)
	if err != nil {
		return err
	}
	cv, err := ctyjson.Unmarshal(js, implied)
	if err != nil {
		return err
	}
	_, err = convert.Convert(cv, ty)
	return err
}

func jsonText(v any) string {
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(js)
}

// keyRange is where the manifest sets name, or else fallback.
func keyRange(keys map[string]hcl.Range, name string, fallback hcl.Range) hcl.Range {
	if rng, ok := keys[name]; ok {
		return rng
	}
	return fallback
}
