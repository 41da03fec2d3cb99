package terraform

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// With a remote backend (PostgreSQL here) the other units' states are not on disk, yet a plan
// that would create an object another unit owns still fails naming the owner: each successful
// apply records what its state holds. A destroy forgets the record, so the name is free again.
func TestARemoteBackendStillFindsAnotherUnitsObject(t *testing.T) {
	t.Parallel()
	b := pgBackend(t)
	root := t.TempDir()
	l, err := New(Config{
		Binary: terraformBinary(t), WorkDir: filepath.Join(root, "work"), PluginCacheDir: filepath.Join(root, "plugins"),
		Mirror: eoslabMirror(t), MirrorInclude: []string{"registry.terraform.io/eos/*"},
		Env: map[string]string{"EOSLAB_ROOT": filepath.Join(root, "cloud")}, Timeout: 2 * time.Minute, Backend: b,
	})
	if err != nil {
		t.Fatal(err)
	}
	in := func(env string, u executor.Unit) executor.Spec {
		s := spec(u)
		s.Env = env
		return s
	}
	module := map[string]string{"main.tf": serverModule("proxy-grafana", "")}
	local := in("local", unit("grafana", module, map[string]any{"size": "small"}))
	mustApply(t, l, local, mustPlan(t, l, local))

	staging := in("staging", unit("grafana", module, map[string]any{"size": "small"}))
	clash := mustPlan(t, l, staging)
	if want := []string{"server proxy-grafana already exists (grafana in local)"}; !slices.Equal(clash.Failures, want) {
		t.Fatalf("failures = %q, want %q", clash.Failures, want)
	}

	gone := local
	gone.Units = []executor.Unit{local.Units[0]}
	gone.Units[0].Destroy = true
	mustApply(t, l, gone, mustPlan(t, l, gone))
	if free := mustPlan(t, l, staging); len(free.Failures) > 0 {
		t.Fatalf("after grafana in local was destroyed: failures %q, want none", free.Failures)
	}
}
