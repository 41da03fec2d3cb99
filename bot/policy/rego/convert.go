package rego

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// toValue is the input document (JSON-shaped: maps, slices, strings, numbers, bools, nil) as
// the value Judge evaluates, with the indexes of index.go added to each layer of the plan.
//
// It is converted lazily, with OPA's own lazy objects (ast.LazyObject): an object's field
// becomes OPA's value when a rule first reads it, and a list in full when a rule first reads
// it, so a document's parts no rule reads are never converted. Converting the whole document
// was most of what judging a big plan cost (BenchmarkPolicyExamplesOverABigPlan, issue #31:
// OPA builds a hashed map per object), and most rules read a few fields of a few changes: the
// example library reads the request, the time, the firewalls among 500 Terraform changes,
// Nomad's 20 changes and the few changes the indexes list. Each change is one lazy object,
// shared by the layer's `changes` and by the indexes that list it, so a change both read
// converts once. A rule that reads every change (`some c in input.plan.layers.terraform.changes`)
// or iterates over a whole object (`some k, v in input.plan.layers`) converts all of it, with
// OPA's own conversion, which costs more than the converter this replaced did (about a third
// more CPU for a rule reading every change of the big plan): the indexes are the cheap way.
//
// A value OPA cannot convert (the engine never puts one there) is found when a rule reads it:
// OPA panics on it, and Judge turns that into a deny naming it.
func toValue(input any) (ast.Value, error) {
	root, ok := input.(map[string]any)
	if !ok {
		return ast.InterfaceToValue(input)
	}
	return ast.LazyObject(withIndexes(root)), nil
}
