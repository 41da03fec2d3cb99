package executor

import (
	"context"
	"sync"
)

// Drift checks spec against the real world in every layer, the layers side by side. A layer
// that is not configured or not used reports DriftSkipped; a check that fails reports
// DriftUnknown, never clean. The reports are in the order of Layers, whatever order the checks
// end in.
func (r *Runner) Drift(ctx context.Context, spec Spec) []LayerDrift {
	out := make([]LayerDrift, len(Layers))
	var wg sync.WaitGroup
	for i, name := range Layers {
		layer, ok := r.layers[name]
		switch {
		case !spec.Has(name):
			out[i] = LayerDrift{Layer: name, Status: DriftSkipped, Reason: "nothing declared"}
		case !ok:
			out[i] = LayerDrift{Layer: name, Status: DriftSkipped, Reason: "not configured"}
		default:
			wg.Go(func() {
				d, err := layer.Drift(ctx, spec)
				d.Layer = name
				if err != nil {
					d.Status, d.Reason = DriftUnknown, err.Error()
				}
				out[i] = d
			})
		}
	}
	wg.Wait()
	return out
}

// Status asks every configured layer that can report what runs now about spec, in run order:
// "Nomad: v3 running, 2/2 allocations healthy". A failed report says why.
func (r *Runner) Status(ctx context.Context, spec Spec) []string {
	var out []string
	for _, name := range Layers {
		l, ok := r.layers[name]
		if !ok || !spec.Has(name) {
			continue
		}
		sr, ok := l.(StatusReporter)
		if !ok {
			continue
		}
		line, err := sr.Status(ctx, spec)
		if err != nil {
			line = "unknown: " + err.Error()
		}
		out = append(out, name.Title()+": "+line)
	}
	return out
}
