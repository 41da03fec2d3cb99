package rego

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// toValue converts a JSON-shaped input document (maps, slices, strings, numbers, bools, nil)
// into OPA's value, giving what ast.InterfaceToValue gives, for less: converting the document
// is most of what judging a large plan costs (BenchmarkPolicyExamplesOverABigPlan, issue #31),
// and most of that is allocating. An object's keys are the same few field names in every
// change of a plan ("unit", "action", "address", …), so each distinct key is one term shared
// by every object of the document instead of one term per object; empty objects and lists
// are OPA's interned ones; each object's and list's terms are allocated together. A type it
// does not know (a struct, a typed slice or map) goes to ast.InterfaceToValue, so a field the
// engine adds to the document in any shape converts as it did.
func toValue(input any) (ast.Value, error) {
	c := converter{keys: make(map[string]*ast.Term, 128)}
	return c.value(input)
}

type converter struct {
	// keys are the object keys converted so far, each one term.
	keys map[string]*ast.Term
}

func (c *converter) key(k string) *ast.Term {
	t, ok := c.keys[k]
	if !ok {
		t = ast.StringTerm(k)
		c.keys[k] = t
	}
	return t
}

func (c *converter) value(x any) (ast.Value, error) {
	switch x := x.(type) {
	case string:
		return ast.String(x), nil
	case bool:
		return ast.Boolean(x), nil
	case map[string]any:
		if len(x) == 0 {
			return ast.InternedEmptyObjectValue, nil
		}
		terms := make([]ast.Term, len(x))
		kvs := make([][2]*ast.Term, len(x))
		i := 0
		for k, v := range x {
			val, err := c.value(v)
			if err != nil {
				return nil, err
			}
			terms[i].Value = val
			kvs[i] = [2]*ast.Term{c.key(k), &terms[i]}
			i++
		}
		return ast.NewObject(kvs...), nil
	case []any:
		if len(x) == 0 {
			return ast.InternedEmptyArrayValue, nil
		}
		terms := make([]ast.Term, len(x))
		ptrs := make([]*ast.Term, len(x))
		for i, e := range x {
			val, err := c.value(e)
			if err != nil {
				return nil, err
			}
			terms[i].Value = val
			ptrs[i] = &terms[i]
		}
		return ast.NewArray(ptrs...), nil
	}
	return ast.InterfaceToValue(x)
}
