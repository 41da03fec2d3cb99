package catalog

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Reading constant attributes of a manifest: every one reports a problem at the attribute's
// position and says what was expected.

// typeKeyword reads `type = size`; "" when absent or not a known type (already reported).
func (d *decoder) typeKeyword(a *hcl.Attribute) Type {
	if a == nil {
		return ""
	}
	word := hcl.ExprAsKeyword(a.Expr)
	if word == "" {
		d.errorf(a.Expr.Range(), "type must be a bare word, one of %s (like type = bool)", typeList())
		return ""
	}
	if t := Type(word); t.Valid() {
		return t
	}
	d.errorf(a.Expr.Range(), "unknown type %q; use one of %s", word, typeList())
	return ""
}

func typeList() string {
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// str reads a constant string attribute.
func (d *decoder) str(a *hcl.Attribute) (string, bool) {
	if a == nil {
		return "", false
	}
	v, hds := a.Expr.Value(nil)
	if !d.addHCL(hds) {
		return "", false
	}
	if v.IsNull() || v.Type() != cty.String {
		d.errorf(a.Expr.Range(), "%s must be a string", a.Name)
		return "", false
	}
	return v.AsString(), true
}

// boolean reads a constant bool attribute.
func (d *decoder) boolean(a *hcl.Attribute) (bool, bool) {
	v, hds := a.Expr.Value(nil)
	if !d.addHCL(hds) {
		return false, false
	}
	if v.IsNull() || v.Type() != cty.Bool {
		d.errorf(a.Expr.Range(), "%s must be true or false", a.Name)
		return false, false
	}
	return v.True(), true
}

// strings reads a constant list of strings.
func (d *decoder) strings(a *hcl.Attribute) ([]string, bool) {
	v, hds := a.Expr.Value(nil)
	if !d.addHCL(hds) {
		return nil, false
	}
	t := v.Type()
	if v.IsNull() || !(t.IsTupleType() || t.IsListType()) {
		d.errorf(a.Expr.Range(), "%s must be a list of strings, like [\"small\", \"large\"]", a.Name)
		return nil, false
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || e.Type() != cty.String {
			d.errorf(a.Expr.Range(), "%s must be a list of strings", a.Name)
			return nil, false
		}
		out = append(out, e.AsString())
	}
	return out, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// constText is the text form of a constant, as a person would type it after --flag.
func constText(v cty.Value) (string, bool) {
	if v.IsNull() || !v.IsWhollyKnown() {
		return "", false
	}
	switch t := v.Type(); {
	case t == cty.String:
		return v.AsString(), true
	case t == cty.Bool:
		return fmt.Sprint(v.True()), true
	case t == cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	case t.IsTupleType() || t.IsListType():
		var items []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.IsNull() || e.Type() != cty.String {
				return "", false
			}
			items = append(items, e.AsString())
		}
		return strings.Join(items, ","), true
	}
	return "", false
}
