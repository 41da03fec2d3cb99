package executor

import (
	"context"
	"fmt"
)

// Adopter is implemented by layers that can take the real world as a unit's declared state:
// the opposite of a reconcile, for drift that was meant.
type Adopter interface {
	// Adopt returns u with its part for this layer declaring what exists now. A difference
	// it cannot declare (a value not set from any variable) is an error saying which, so
	// nobody approves half an adopt.
	Adopt(ctx context.Context, env string, u Unit) (Unit, error)
}

// Adopt makes the spec that takes the real world as the declared state of spec's units: each
// configured layer that can (an Adopter) rewrites its part of every unit, and the result is
// marked Adopt, so applying it records reality instead of changing it. A layer that is used
// but cannot adopt (Salt: its states are idempotent commands, not a record of what exists) is
// left as declared and never applied by an adopt: its Plan names what differs as left as is.
func (r *Runner) Adopt(ctx context.Context, spec Spec) (Spec, error) {
	out := spec
	out.Verb, out.Adopt = "adopt", true
	out.Units = append([]Unit(nil), spec.Units...)
	for _, name := range Layers {
		layer, ok := r.layers[name]
		if !ok || !spec.Has(name) {
			continue
		}
		ad, ok := layer.(Adopter)
		if !ok {
			continue
		}
		for i, u := range out.Units {
			if u.Destroy {
				return Spec{}, fmt.Errorf("%s is declared destroyed: there is nothing to adopt", u.Service)
			}
			adopted, err := ad.Adopt(ctx, spec.Env, u)
			if err != nil {
				return Spec{}, &LayerError{Layer: name, Err: err}
			}
			out.Units[i] = adopted
		}
	}
	return out, nil
}
