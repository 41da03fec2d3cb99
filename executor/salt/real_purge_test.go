package salt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// On the real minion, a destroy keeps the service's directory under the data directory and
// says --purge-data removes it; destroy --purge-data plans its removal as a destroy that loses
// data, and its apply removes the directory with what the service wrote there, nothing else.
func TestRealPurgeDataRemovesTheServicesDirectory(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	parent := r.dir(t)
	dir := filepath.Join(parent, "purge-local")
	spec := fileSpec("purge", dir, 8080, "")
	ctx := context.Background()
	p, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Apply(ctx, spec, p, executor.Observe(func(executor.Event) {}, nil)); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	written := filepath.Join(dir, "data.db") // what the service wrote, next to the managed files
	if err := os.WriteFile(written, []byte("rows"), 0o644); err != nil {
		t.Fatal(err)
	}

	spec.Verb, spec.Units[0].Destroy = "destroy", true
	kept, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan of the destroy: %v", err)
	}
	want := "kept on " + r.minion + ": " + dir + "/app.conf, " + dir + "/volume.marker — Salt does not undo host configuration; add --purge-data to remove them"
	if kept.Status != executor.PlanNoChanges || kept.Kept != want {
		t.Errorf("destroy plan %s, kept %q; want %q", kept.Status, kept.Kept, want)
	}

	spec.PurgeData = true
	purge, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan of the destroy --purge-data: %v", err)
	}
	if purge.Status != executor.PlanChanges || len(purge.Changes) != 1 {
		t.Fatalf("destroy --purge-data plan %s with %+v; want one change", purge.Status, purge.Changes)
	}
	c := purge.Changes[0]
	if c.Action != executor.Delete || !c.DataLoss || c.Address != r.minion+": file.absent "+dir || c.Unit != "purge" {
		t.Errorf("destroy --purge-data plans %+v; want the removal of %s, losing data", c, dir)
	}
	if !strings.HasPrefix(purge.Summary, "+0 ~0 −1 on "+r.minion+": ") {
		t.Errorf("the Salt row reads %q; want it to count one destroy", purge.Summary)
	}
	t.Logf("Salt row: %s", purge.Summary)
	if purge.Digest == kept.Digest {
		t.Error("the destroy with and without --purge-data have the same digest, so the same hash")
	}
	if _, err := os.Stat(written); err != nil {
		t.Fatalf("the plan removed something: %v", err)
	}

	res, err := l.Apply(ctx, spec, purge, executor.Observe(func(executor.Event) {}, nil))
	if err != nil || res.Status != executor.ResultOK {
		t.Fatalf("Apply of the destroy --purge-data: %+v, %v", res, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after destroy --purge-data (%v)", dir, err)
	}
	if _, err := os.Stat(parent); err != nil {
		t.Errorf("destroy --purge-data removed more than the service's directory: %v", err)
	}
}
