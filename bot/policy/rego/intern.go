package rego

import "github.com/open-policy-agent/opa/v1/ast"

// InternKeys has OPA share one value for each of keys wherever a document holds it, so that
// converting an object costs no allocation for those field names: the engine names the
// fields of every change of its input documents (several thousand of them in a big plan, and
// a rule that reads every change converts them all). Call it only from an init function:
// OPA's table of shared strings is not safe for concurrent use.
func InternKeys(keys ...string) { ast.InternStringTerm(keys...) }

// Interned reports whether s is one of the strings OPA shares (InternKeys).
func Interned(s string) bool { return ast.HasInternedValue(s) }
