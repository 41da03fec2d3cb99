package executor

import (
	"encoding/json"
	"reflect"
)

// A plan's spec carries its blueprints' module files, job templates and states: most of a
// stored plan's bytes, and most of the cost of encoding it. Runner.Plan encodes the spec once
// to hash it; JSON encodes the plan for the store with those bytes instead of encoding the
// spec again (in a burst of requests each encoding was about 9 % of the CPU; docs/PERFORMANCE.md,
// row 2b (h33b)).

// hashedSpec is a spec as hashPlan encoded it: a shallow copy of the value, and its JSON.
type hashedSpec struct {
	spec Spec
	json []byte
}

// planTail is Plan's JSON after its spec: its other fields, in order, with their tags. A test
// holds the two to each other (TestAPlanEncodesAsJSONMarshalDoes).
type planTail struct {
	Layers  []LayerPlan `json:"layers"`
	Secrets *SecretPlan `json:"secrets,omitempty"`
	Hash    string      `json:"hash"`
}

// JSON is json.Marshal(p), byte for byte. When p's spec is still the one its hash was computed
// from (the same values, and the same slices, maps and pointers: nothing was set since), the
// spec's bytes are the ones computed for the hash; otherwise the whole plan is encoded.
func (p *Plan) JSON() ([]byte, error) {
	h := p.hashed
	if h == nil || !identical(reflect.ValueOf(&h.spec).Elem(), reflect.ValueOf(&p.Spec).Elem()) {
		return json.Marshal(p)
	}
	tail, err := json.Marshal(planTail{Layers: p.Layers, Secrets: p.Secrets, Hash: p.Hash})
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(`{"spec":`)+len(h.json)+len(tail))
	out = append(out, `{"spec":`...)
	out = append(out, h.json...)
	out = append(out, ',')
	return append(out, tail[1:]...), nil // tail without its "{"
}

// identical reports whether a and b, of one type, hold the same values and share the same
// slices, maps and pointers: a shallow copy, of which nothing was set since. Contents behind
// a shared slice, map or pointer are not compared: changing them in place would also have
// changed what the hash was computed from, which nothing in Eos does.
func identical(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !identical(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !identical(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return a.Len() == b.Len() && a.Cap() == b.Cap() && a.IsNil() == b.IsNil() && a.UnsafePointer() == b.UnsafePointer()
	case reflect.Map, reflect.Pointer, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return a.UnsafePointer() == b.UnsafePointer()
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		return a.Elem().Type() == b.Elem().Type() && identical(a.Elem(), b.Elem())
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	default:
		return false // complex numbers: never in a spec; encode afresh
	}
}
