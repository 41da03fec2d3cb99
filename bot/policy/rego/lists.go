package rego

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// Lists of lazy changes.
//
// A rule that iterates a list of changes (`some c in input.plan.layers.terraform.changes`)
// makes OPA convert that list, and OPA's list (ast.NewArray) asks each element for its hash as
// it is built. A lazy object (ast.LazyObject) answers that by converting itself in full, so a
// rule that reads two fields of the 100 firewalls of a big plan paid for converting all of
// each firewall: its attribute lines, its values before and after, every field (about 13 µs
// and 85 allocations a firewall; most of what judging the big plan allocated).
//
// So the lists of changes are built here, once per judgement, as OPA lists whose elements are
// the changes' lazy objects with their hashes computed from the Go values (nativeHash), which
// allocates nothing. OPA builds the list with stand-ins that report those hashes (hashed);
// each stand-in's term then takes its change's lazy object. The list is then what OPA's own
// conversion would have made, hashes included, but a change converts only the fields a rule
// reads. nativeHash must compute OPA's hash exactly, or a list would not equal its converted
// twin: TestNativeHashIsOPAsHash checks it against OPA's conversion over every kind of value,
// so an OPA upgrade that changes its hashing fails that test, not a policy.

// nativeHash is the hash OPA gives the value it converts x to (ast.InterfaceToValue(x).Hash()),
// computed without converting x: an object's hash is the sum of its keys' and values' hashes,
// a list's the sum of its elements', a string's, a boolean's and null's their own. Other values
// (numbers) are converted to ask OPA.
func nativeHash(x any) int {
	switch x := x.(type) {
	case string:
		return ast.String(x).Hash()
	case bool:
		return ast.Boolean(x).Hash()
	case nil:
		return ast.Null{}.Hash()
	case map[string]any:
		h := 0
		for k, v := range x {
			h += ast.String(k).Hash() + nativeHash(v)
		}
		return h
	case []any:
		h := 0
		for _, v := range x {
			h += nativeHash(v)
		}
		return h
	case []string:
		h := 0
		for _, v := range x {
			h += ast.String(v).Hash()
		}
		return h
	case map[string]string:
		h := 0
		for k, v := range x {
			h += ast.String(k).Hash() + ast.String(v).Hash()
		}
		return h
	case ast.Value:
		return x.Hash()
	}
	v, err := ast.InterfaceToValue(x)
	if err != nil {
		// Not convertible: OPA fails on it when a rule reads it, and Judge denies.
		return 0
	}
	return v.Hash()
}

// lazyChange is one change of a layer: the term its lists share, and its lazy object.
type lazyChange struct {
	term *ast.Term
	obj  ast.Object
}

// newLazyChange is change ch as a lazy object in term t, which stands in with stand (holding
// ch's hash) until settle is called. The caller allocates a layer's terms and stand-ins in
// one block each: two allocations a layer instead of two a change (a big plan has hundreds).
func newLazyChange(ch map[string]any, t *ast.Term, stand *hashed) lazyChange {
	t.Value = stand
	return lazyChange{term: t, obj: ast.LazyObject(ch)}
}

// settle puts the lazy object in the term, once every list holding it is built.
func (c lazyChange) settle() { c.term.Value = c.obj }

// list is OPA's list of terms (each a change's or any other value's), built while the changes'
// terms still stand in with their hashes.
func list(terms []*ast.Term) *ast.Array {
	return ast.NewArray(terms...)
}

// hashed stands in for a change while ast.NewArray reads its hash: it is never evaluated, as
// its term holds the change's lazy object before the list is given to OPA.
type hashed int

func (h hashed) Compare(other ast.Value) int {
	switch o := other.(type) {
	case hashed:
		return int(h) - int(o)
	case *hashed:
		return int(h) - int(*o)
	}
	return -1
}
func (hashed) Find(ast.Ref) (ast.Value, error) { return nil, nil }
func (h hashed) Hash() int                     { return int(h) }
func (hashed) IsGround() bool                  { return true }
func (hashed) String() string                  { return "<change>" }
func (hashed) StringLength() int               { return len("<change>") }
