package salt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
)

// TestRealShippedLocalStates applies the default (local) Salt state of every shipped service on
// the real minion: each manages its files under the minion's eos_data_dir, a second plan finds
// nothing to do, and a hand edit of its configuration file is drift.
func TestRealShippedLocalStates(t *testing.T) {
	r := needSalt(t)
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	l := r.layer(t, nil, nil)
	ctx := context.Background()
	for _, b := range cat.Services() {
		t.Run(b.Name, func(t *testing.T) {
			rendered, err := b.Render(catalog.Request{Env: "local"})
			if err != nil {
				t.Fatal(err)
			}
			// Under a directory of this test's own: other packages' tests share the minion.
			top := r.dir(t)
			rendered.Salt.Pillar["mount_point"] = strings.TrimPrefix(top, r.data) + "/srv/" + b.Name
			root := filepath.Join(top, "srv", b.Name)
			spec := executor.Spec{Verb: "create", Target: b.Name, Env: "local", Units: []executor.Unit{{Service: b.Name,
				Salt: &executor.SaltPart{State: rendered.Salt.State, Text: rendered.Salt.Text, Pillar: rendered.Salt.Pillar}}}}
			p, err := l.Plan(ctx, spec)
			if err != nil || p.Status != executor.PlanChanges {
				t.Fatalf("Plan = %s, %v; want changes", p.Status, err)
			}
			if _, err := l.Apply(ctx, spec, p, executor.Observe(nil, nil)); err != nil {
				t.Fatalf("Apply: %v", err)
			}
			entries, _ := os.ReadDir(root)
			var files []string
			for _, e := range entries {
				if e.Name() != ".eos-volume" {
					files = append(files, filepath.Join(root, e.Name()))
				}
			}
			if len(entries) != 2 || len(files) != 1 {
				t.Fatalf("files under %s: %v, want a configuration file and the volume marker", root, entries)
			}
			if again, err := l.Plan(ctx, spec); err != nil || again.Status != executor.PlanNoChanges {
				t.Errorf("a second plan = %s %q, %v; want no changes", again.Status, again.Summary, err)
			}
			if err := os.WriteFile(files[0], []byte("edited by hand\n"), 0o640); err != nil {
				t.Fatal(err)
			}
			// The file's path holds the minion's eos_data_dir, which the blueprint does not say
			// but the minion does: the state's name and the diff's data= line show it whole
			// (datadir.go).
			d, err := l.Drift(ctx, spec)
			if err != nil || d.Status != executor.DriftDrifted || len(d.Changes) != 1 || !strings.HasSuffix(d.Changes[0].Address, b.Name+"-config ("+files[0]+")") ||
				!strings.Contains(d.Changes[0].Diff, "\n+data="+root) || strings.Contains(d.Changes[0].Address, secretMasked) {
				t.Errorf("Drift after editing %s = %+v, %v", files[0], d, err)
			}
		})
	}
}
