package salt

import (
	"context"
	"os"
	"testing"

	"github.com/eosbot/eos/executor"
)

// The real minion's destroy plan names the files the unit's states manage, which the destroy
// leaves in place, and runs nothing: the files applied before stay untouched.
func TestRealDestroyNamesWhatItKeeps(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	spec := fileSpec("kept", dir, 8080, "")
	ctx := context.Background()
	p, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Apply(ctx, spec, p, executor.Observe(func(executor.Event) {}, nil)); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	spec.Verb, spec.Units[0].Destroy = "destroy", true
	d, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan of the destroy: %v", err)
	}
	want := "kept on " + r.minion + ": " + dir + "/app.conf, " + dir + "/volume.marker — Salt does not undo host configuration; add --purge-data to remove them"
	if d.Status != executor.PlanNoChanges || d.Kept != want {
		t.Errorf("destroy plan %s, kept %q; want %q", d.Status, d.Kept, want)
	}
	if b, err := os.ReadFile(dir + "/app.conf"); err != nil || string(b) != "port=8080\n" {
		t.Errorf("the destroy plan changed %s/app.conf: %q, %v", dir, b, err)
	}
}
