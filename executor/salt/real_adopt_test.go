package salt

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// Salt drift cannot be adopted: an adopt's plan on the real minion names the state a hand
// edit made differ as left as is (and how to keep the edit), plans no change, and applying it
// leaves the edited file exactly as it was.
func TestRealAdoptLeavesSaltAsItIs(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	spec := fileSpec("adopted", dir, 8080, "")
	ctx := context.Background()
	p, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Apply(ctx, spec, p, executor.Observe(func(executor.Event) {}, nil)); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	edited := "port=8080\nmax_upload=10G\n" // a line added by hand
	if err := os.WriteFile(dir+"/app.conf", []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	spec.Verb, spec.Adopt = "adopt", true
	ap, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan of the adopt: %v", err)
	}
	if ap.Status != executor.PlanNoChanges || len(ap.Changes) != 0 {
		t.Errorf("adopt plan %s with changes %+v; want no changes", ap.Status, ap.Changes)
	}
	if !strings.Contains(ap.Kept, "left as is, not adopted: "+r.minion+": file.managed "+dir+"/app.conf") ||
		!strings.Contains(ap.Kept, "change the blueprint or its pillar") || strings.Contains(ap.Kept, "volume.marker") {
		t.Errorf("adopt plan kept = %q; want app.conf named as left as is, and how to keep it", ap.Kept)
	}
	res, err := l.Apply(ctx, spec, ap, executor.Observe(func(executor.Event) {}, nil))
	if err != nil || res.Status != executor.ResultSkipped {
		t.Errorf("adopt apply = %+v, %v; want skipped", res, err)
	}
	if b, err := os.ReadFile(dir + "/app.conf"); err != nil || string(b) != edited {
		t.Errorf("the adopt changed the file edited by hand: %q, %v", b, err)
	}
}
