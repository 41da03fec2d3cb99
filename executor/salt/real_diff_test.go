package salt

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// On the real minion, a plan that changes a managed file and a drift check of a hand-edited
// one carry the file's diff: what the blueprint writes is shown, and a secret someone wrote
// into the file on the host (a value Eos never saw) is masked in the plan and in the drift.
func TestRealFileDiffIsShownWithTheSecretMasked(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	ctx := context.Background()
	spec := fileSpec("diff", dir, 8080, "")
	p, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Apply(ctx, spec, p, executor.Observe(func(executor.Event) {}, nil)); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	const secret = "Zr7qK2vLp9XwQ4"
	conf := dir + "/app.conf"
	if err := os.WriteFile(conf, []byte("port=8080\ndb_secret="+secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	diffOf := func(changes []executor.Change) string {
		t.Helper()
		for _, c := range changes {
			if strings.HasSuffix(c.Address, conf) {
				return c.Diff
			}
		}
		t.Fatalf("no change of %s in %+v", conf, changes)
		return ""
	}

	d, err := l.Drift(ctx, spec)
	if err != nil || d.Status != executor.DriftDrifted {
		t.Fatalf("Drift after a hand edit = %+v, %v; want drifted", d, err)
	}
	drift := diffOf(d.Changes)
	if !strings.Contains(drift, "-"+secretMasked) || !strings.Contains(drift, " port=8080") || strings.Contains(drift, secret) {
		t.Errorf("drift diff of %s:\n%s\nwant the kept line shown and the secret's line masked", conf, drift)
	}

	spec = fileSpec("diff", dir, 8081, "")
	p, err = l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	plan := diffOf(p.Changes)
	if !strings.Contains(plan, "+port=8081") || !strings.Contains(plan, "-"+secretMasked) || strings.Contains(plan, secret) {
		t.Errorf("plan diff of %s:\n%s\nwant +port=8081 shown and the secret's line masked", conf, plan)
	}
	if strings.Contains(p.Digest, secret) || strings.Contains(p.Summary, secret) {
		t.Errorf("the plan's digest or summary holds the secret: %q, %q", p.Digest, p.Summary)
	}
	t.Logf("plan diff:\n%s", plan)
}
