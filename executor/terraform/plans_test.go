package terraform

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Saved plans nobody applies do not pile up: those older than planRetention go, and a unit
// keeps at most maxPlanFiles, the newest; the plan just made is never removed.
func TestPrunePlansBoundsTheDataDir(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ud := &unitDir{key: "local/web", dir: t.TempDir()}
	touch := func(path string, age time.Duration) {
		t.Helper()
		if err := os.WriteFile(path, []byte("plan"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	var fresh []string
	for i := range maxPlanFiles + 5 {
		f, err := newPlanFile(ud, now)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(ud.dir, f)
		touch(path, time.Duration(i+1)*time.Minute)
		fresh = append(fresh, path)
	}
	old := filepath.Join(ud.dir, plansDir, "old"+planExt)
	touch(old, planRetention+time.Minute)
	legacy := filepath.Join(ud.dir, legacyPlanFile)
	touch(legacy, planRetention+time.Hour)
	notAPlan := filepath.Join(ud.dir, plansDir, "notes.txt")
	touch(notAPlan, 10*planRetention)
	keep := fresh[len(fresh)-1] // the oldest of the fresh ones, but the one just planned

	if errs := prunePlans(ud, now, keep); len(errs) > 0 {
		t.Fatal(errs)
	}
	exists := func(p string) bool { _, err := os.Stat(p); return err == nil }
	for i, p := range fresh {
		want := i < maxPlanFiles-1 || p == keep
		if exists(p) != want {
			t.Errorf("plan %d (%d min old): exists %v, want %v", i, i+1, exists(p), want)
		}
	}
	for _, p := range []string{old, legacy} {
		if exists(p) {
			t.Errorf("%s outlived planRetention", filepath.Base(p))
		}
	}
	if !exists(notAPlan) {
		t.Error("a file that is not a saved plan was removed")
	}
}

// Apply runs only a saved plan of the unit's own: never a file elsewhere, even one with the
// right checksum.
func TestOwnPlanFile(t *testing.T) {
	ud := &unitDir{key: "local/web", dir: "/data/terraform/local/web"}
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"/data/terraform/local/web/eos-plans/20261123T120000.000000000Z-abc.tfplan", true},
		{"/data/terraform/local/web/eos.tfplan", true},
		{"/data/terraform/local/api/eos-plans/x.tfplan", false},
		{"/data/terraform/local/web/eos-plans/../../api/eos.tfplan", false},
		{"/data/terraform/local/web/eos-plans/x.txt", false},
		{"/data/terraform/local/web/eos-plans/sub/x.tfplan", false},
		{"/tmp/eos.tfplan", false},
		{"eos-plans/x.tfplan", false},
	} {
		t.Run(fmt.Sprint(tc.path), func(t *testing.T) {
			if _, ok := ownPlanFile(ud, tc.path); ok != tc.ok {
				t.Errorf("ownPlanFile(%q) = %v, want %v", tc.path, ok, tc.ok)
			}
		})
	}
}
