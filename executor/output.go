package executor

import "context"

type outputKey struct{}

// WithOutput returns ctx carrying sink, which receives the lines of a layer's own output as
// it applies (Terraform's messages, a Salt state's result, a Nomad deployment's status), for
// a page that shows a run live. A layer never puts a sensitive value in such a line.
//
// It is how a layer is handed its sink: Runner.Apply sets it from its Observer, so whoever
// runs a plan passes an Observer and never this; a test driving one layer's Apply directly
// sets it itself.
func WithOutput(ctx context.Context, sink func(layer LayerName, line string)) context.Context {
	return context.WithValue(ctx, outputKey{}, sink)
}

// Output sends line to the sink ctx carries; without one it does nothing.
func Output(ctx context.Context, layer LayerName, line string) {
	if sink, ok := ctx.Value(outputKey{}).(func(LayerName, string)); ok && sink != nil && line != "" {
		sink(layer, line)
	}
}
