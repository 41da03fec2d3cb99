package rego

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// toValue converts a JSON-shaped input document (maps, slices, strings, numbers, bools, nil)
// into OPA's value, giving what ast.InterfaceToValue gives, for less: converting the document
// is a large part of what judging a large plan costs (BenchmarkPolicyExamplesOverABigPlan,
// issue #31), and most of that is allocating. An object's keys are the same few field names in every
// change of a plan ("unit", "action", "address", …), so each distinct key is one term shared
// by every object of the document instead of one term per object; empty objects and lists
// are OPA's interned ones; the terms of objects and lists are cut from shared chunks. A type it
// does not know (a struct, a typed slice or map) goes to ast.InterfaceToValue, so a field the
// engine adds to the document in any shape converts as it did.
func toValue(input any) (ast.Value, error) {
	c := converter{keys: make(map[string]*ast.Term, 128)}
	return c.value(input, elsewhere)
}

// toIndexedValue is toValue with the indexes of index.go added to each layer of the plan.
func toIndexedValue(input any) (ast.Value, error) {
	c := converter{keys: make(map[string]*ast.Term, 128)}
	return c.value(input, atRoot)
}

type converter struct {
	// keys are the object keys converted so far, each one term.
	keys map[string]*ast.Term
	// terms, pairs and ptrs are the chunks the terms of objects and lists are cut from: a few
	// allocations per document instead of three per object or list. (A string still costs
	// one: sharing chunks for them too needs unsafe, for a gain within the noise.)
	terms chunks[ast.Term]
	pairs chunks[[2]*ast.Term]
	ptrs  chunks[*ast.Term]
	// layer is the name of the layer being converted, for its indexes.
	layer string
}

// chunks hands out pieces of chunks that grow from firstChunk to lastChunk elements: a plan's
// document holds thousands of terms, a small one (most plans; `eos policy replay` judges
// thousands of them) a few dozen, which should not cost a big chunk each.
type chunks[T any] struct {
	left []T // what is left of the current chunk
	size int // the current chunk's size
}

const (
	firstChunk = 16
	lastChunk  = 512
)

// cut takes n elements off the front of the current chunk, allocating the next when too few
// are left. Each piece is capped at n, so appending to it never writes into the next.
func (c *chunks[T]) cut(n int) []T {
	if len(c.left) < n {
		c.size = min(max(2*c.size, firstChunk), lastChunk)
		c.left = make([]T, max(n, c.size))
	}
	out := c.left[:n:n]
	c.left = c.left[n:]
	return out
}

func (c *converter) key(k string) *ast.Term {
	t, ok := c.keys[k]
	if !ok {
		t = ast.StringTerm(k)
		c.keys[k] = t
	}
	return t
}

// value converts x, found at place at of the document.
func (c *converter) value(x any, at place) (ast.Value, error) {
	switch x := x.(type) {
	case string:
		return ast.String(x), nil
	case bool:
		return ast.Boolean(x), nil
	case map[string]any:
		if len(x) == 0 {
			return ast.InternedEmptyObjectValue, nil
		}
		terms := c.terms.cut(len(x))
		kvs := c.pairs.cut(len(x))
		i := 0
		var changes *ast.Term // a layer's changes, at atLayer
		for k, v := range x {
			if at == atLayers {
				c.layer = k
			}
			val, err := c.value(v, at.child(k))
			if err != nil {
				return nil, err
			}
			terms[i].Value = val
			kvs[i] = [2]*ast.Term{c.key(k), &terms[i]}
			if at == atLayer && k == "changes" {
				changes = &terms[i]
			}
			i++
		}
		if changes != nil {
			kvs = append(kvs, c.layerIndex(c.layer, x, changes)...)
		}
		return ast.NewObject(kvs...), nil
	case []any:
		if len(x) == 0 {
			return ast.InternedEmptyArrayValue, nil
		}
		terms := c.terms.cut(len(x))
		ptrs := c.ptrs.cut(len(x))
		for i := range terms {
			ptrs[i] = &terms[i]
		}
		half := len(x)
		var done chan error
		if at == atChanges && len(x) >= 2*halfAtLeast {
			// A big plan's changes convert in two halves at once: the second by a converter of
			// its own (its own chunks and keys), on another core when there is one.
			half = len(x) / 2
			done = make(chan error, 1)
			go func() {
				sub := converter{keys: make(map[string]*ast.Term, 64)}
				done <- sub.list(x[half:], terms[half:])
			}()
		}
		err := c.list(x[:half], terms[:half])
		if done != nil {
			if err2 := <-done; err == nil {
				err = err2
			}
		}
		if err != nil {
			return nil, err
		}
		return ast.NewArray(ptrs...), nil
	}
	return ast.InterfaceToValue(x)
}

// halfAtLeast is the least number of changes worth converting on a second goroutine.
const halfAtLeast = 64

// list converts the elements of x into terms (as long as x).
func (c *converter) list(x []any, terms []ast.Term) error {
	for i, e := range x {
		val, err := c.value(e, elsewhere)
		if err != nil {
			return err
		}
		terms[i].Value = val
	}
	return nil
}
