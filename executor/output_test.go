package executor

import (
	"context"
	"slices"
	"testing"
)

// Output reaches the sink in the context with its layer, skips empty lines, and is a no-op
// without a sink.
func TestOutput(t *testing.T) {
	Output(context.Background(), Terraform, "no sink: nothing happens")
	var got []string
	ctx := WithOutput(context.Background(), func(l LayerName, line string) { got = append(got, string(l)+": "+line) })
	Output(ctx, Terraform, "terraform_data.server: Creating...")
	Output(ctx, Salt, "")
	Output(ctx, Salt, "file.managed /etc/x: changed")
	want := []string{"terraform: terraform_data.server: Creating...", "salt: file.managed /etc/x: changed"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
