package rego

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// lazyDocument is the input document (JSON-shaped: maps, slices, strings, numbers, bools, nil)
// as the value Judge evaluates, with the indexes of index.go added to each layer of the plan,
// its changes' hashes taken from hashes (hashChanges).
//
// It is converted lazily, with OPA's own lazy objects (ast.LazyObject): an object's field
// becomes OPA's value when a rule first reads it, so a document's parts no rule reads are never
// converted. Converting the whole document was most of what judging a big plan cost
// (BenchmarkPolicyExamplesOverABigPlan, issue #31: OPA builds a hashed map per object), and
// most rules read a few fields of a few changes. Each change is one lazy object, shared by the
// layer's `changes` and by the indexes that list it; the lists are built with each change's
// hash computed from its Go values (lists.go), so a rule that iterates a list converts only the
// fields it reads of each change, not every change in full as OPA's lists of lazy objects
// would. A rule that hashes a change itself (a set of changes, a function called with a change,
// whose result OPA caches by its arguments) converts that change in full.
//
// A value OPA cannot convert (the engine never puts one there) is found when a rule reads it:
// OPA panics on it, and Judge turns that into a deny naming it.
func lazyDocument(doc map[string]any, hashes changeHashes) ast.Value {
	return ast.LazyObject(withIndexes(doc, hashes))
}
