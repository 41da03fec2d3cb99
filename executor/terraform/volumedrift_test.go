package terraform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/executor"
)

// volumeModule is a data volume whose size is one variable, as the shipped blueprints have it.
const volumeModule = `
terraform {
  required_providers {
    eoslab = { source = "eos/eoslab" }
  }
}
variable "volume_gb" { type = number }
resource "eoslab_volume" "data" {
  name    = "data-nextcloud"
  size_gb = var.volume_gb
  format  = "xfs"
}
`

func volumeSpec(gb int) executor.Spec {
	return spec(unit("nextcloud", map[string]string{"main.tf": volumeModule}, map[string]any{"volume_gb": gb}))
}

// growVolume sets the simulated volume's size by hand, as someone with cloud access would.
func growVolume(t *testing.T, cloud string, gb int) {
	t.Helper()
	path := filepath.Join(cloud, "volume", "data-nextcloud.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	obj["size_gb"] = gb
	raw, _ = json.MarshalIndent(obj, "", "  ")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A volume grown by hand is drift Terraform cannot plan around (it will not shrink it back):
// drift still names the attribute that changed, adopt declares the real size and leaves
// nothing drifted, and a destroy plans and runs whatever the drift.
func TestVolumeGrownByHandStaysManageable(t *testing.T) {
	t.Parallel()
	l, cloud := newEoslabLayer(t, nil)
	ctx := testCtx(t)
	declared := volumeSpec(200)
	mustApply(t, l, declared, mustPlan(t, l, declared))
	growVolume(t, cloud, 300)

	d, err := l.Drift(ctx, declared)
	if err != nil {
		t.Fatal(err)
	}
	if d.Status != executor.DriftDrifted || len(d.Changes) != 1 ||
		d.Changes[0].Address != "eoslab_volume.data" || d.Changes[0].Detail != "size_gb 200 → 300, changed outside Terraform" {
		t.Fatalf("drift = %+v, want eoslab_volume.data size_gb 200 → 300, changed outside Terraform", d)
	}

	adopted, err := l.Adopt(ctx, "local", declared.Units[0])
	if err != nil {
		t.Fatalf("adopt: %v", err)
	}
	if got := adopted.Terraform.Vars["volume_gb"]; !same(got, 300) {
		t.Fatalf("adopted volume_gb = %v, want 300", got)
	}
	as := spec(adopted)
	as.Adopt = true
	mustApply(t, l, as, mustPlan(t, l, as))
	after := spec(adopted)
	if d, err := l.Drift(ctx, after); err != nil || d.Status != executor.DriftClean {
		t.Fatalf("drift after the adopt = %+v, %v; want clean", d, err)
	}

	// Grown again, and destroyed as it is.
	growVolume(t, cloud, 400)
	gone := after
	gone.Units = []executor.Unit{after.Units[0]}
	gone.Units[0].Destroy = true
	p := mustPlan(t, l, gone)
	if p.Status != executor.PlanChanges || len(p.Changes) != 1 || p.Changes[0].Action != executor.Delete {
		t.Errorf("destroy plan = %+v", p)
	}
	mustApply(t, l, gone, p)
	if _, err := os.Stat(filepath.Join(cloud, "volume", "data-nextcloud.json")); !os.IsNotExist(err) {
		t.Errorf("the volume is still there after the destroy: %v", err)
	}
}

// An adopt of a unit nothing changed outside Terraform takes nothing into the state: its plan
// changes nothing, though Terraform's exit code says a refresh-only plan always does.
func TestAdoptWithNothingDriftedChangesNothing(t *testing.T) {
	t.Parallel()
	l, _ := newEoslabLayer(t, nil)
	ctx := testCtx(t)
	declared := volumeSpec(200)
	mustApply(t, l, declared, mustPlan(t, l, declared))

	adopted, err := l.Adopt(ctx, "local", declared.Units[0])
	if err != nil {
		t.Fatalf("adopt: %v", err)
	}
	as := spec(adopted)
	as.Adopt = true
	if p := mustPlan(t, l, as); p.Status != executor.PlanNoChanges || len(p.Changes) != 0 || p.Summary != "no changes" {
		t.Fatalf("adopt plan with nothing drifted = %v %q %d changes, want no changes", p.Status, p.Summary, len(p.Changes))
	}
}
