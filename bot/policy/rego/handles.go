package rego

import (
	"maps"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// approverHandles are the handles the modules name, as string literals, among the approvers
// of a decision: the strings (not "group:" ones) of an array or set under an "approvers" key
// of an object the rules write. The engine pins them when the set is loaded, as it pins the
// configuration's handles, so a handle a rule names is looked up before any plan needs it;
// approvers a rule computes are looked up when the rule first decides.
func approverHandles(modules map[string]*ast.Module) []string {
	seen := map[string]bool{}
	add := func(t *ast.Term) {
		if s, ok := t.Value.(ast.String); ok && s != "" && !strings.HasPrefix(string(s), "group:") {
			seen[string(s)] = true
		}
	}
	for _, m := range modules {
		ast.WalkTerms(m, func(t *ast.Term) bool {
			obj, ok := t.Value.(ast.Object)
			if !ok {
				return false
			}
			approvers := obj.Get(ast.StringTerm("approvers"))
			if approvers == nil {
				return false
			}
			switch v := approvers.Value.(type) {
			case *ast.Array:
				v.Foreach(add)
			case ast.Set:
				v.Foreach(add)
			}
			return false
		})
	}
	return slices.Sorted(maps.Keys(seen))
}

// Handles are the handles the set's rules name as literal approvers, sorted; none for a nil set.
func (s *Set) Handles() []string {
	if s == nil {
		return nil
	}
	return s.handles
}
