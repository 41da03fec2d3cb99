package salt

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

func TestDrift(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	drifted := false
	f.run = func(_ string, _ string, _ map[string]any, test bool) any {
		if !test {
			t.Error("drift ran states for real")
		}
		if drifted {
			return states(
				s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", nil, map[string]any{"size": "100G -> 150G"}, "Logical Volume data-nextcloud is set to be resized", 0),
				s("pkg", "xfsprogs", "xfsprogs", "installed", true, nil, "All specified packages are already installed", 1),
			)
		}
		return cleanStates()
	}
	l := newLayer(t, f, nil)
	d, err := l.Drift(context.Background(), lvmSpec())
	if err != nil || d.Status != executor.DriftClean || len(d.Changes) != 0 {
		t.Fatalf("Drift = %+v, %v; want clean", d, err)
	}
	f.mu.Lock()
	drifted = true
	f.mu.Unlock()
	d, err = l.Drift(context.Background(), lvmSpec())
	want := []executor.Change{{Unit: "lvm", Action: executor.Update, Address: "node1: lvm.lv_present data-nextcloud", Detail: "Logical Volume data-nextcloud is set to be resized",
		Salt: &executor.SaltState{Minion: "node1", ID: "data-nextcloud", Function: "lvm.lv_present", Name: "data-nextcloud",
			Changes: map[string]any{"size": secretMasked}, Triggers: []string{}}}}
	if err != nil || d.Status != executor.DriftDrifted || !reflect.DeepEqual(d.Changes, want) {
		t.Fatalf("Drift = %+v, %v; want drifted with %+v", d, err, want)
	}
	f.mu.Lock()
	f.down["node1"] = true
	f.mu.Unlock()
	l.timeout = 100 * time.Millisecond
	d, err = l.Drift(context.Background(), lvmSpec())
	if err != nil || d.Status != executor.DriftUnknown || !strings.Contains(d.Reason, "minion node1 did not answer test.ping") {
		t.Fatalf("Drift with an unreachable minion = %+v, %v; want unknown", d, err)
	}
}

func TestRollback(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(string, string, map[string]any, bool) any { return cleanStates() }
	l := newLayer(t, f, nil)
	spec := lvmSpec()
	msg, err := l.Rollback(context.Background(), spec, nil, executor.Observe(nil, nil))
	if err != nil || msg != "Salt states kept (re-apply is safe)" || len(f.applyCalls()) != 0 {
		t.Fatalf("Rollback without a previous spec = %q, %v, %d calls", msg, err, len(f.applyCalls()))
	}
	prev := lvmSpec()
	prev.Units[0].Salt.Text = lvmText + "# previous\n"
	prev.Units[0].Salt.Pillar = map[string]any{"service": "nextcloud", "size": "100G"}
	var events []executor.Event
	msg, err = l.Rollback(context.Background(), spec, &prev, executor.Observe(func(e executor.Event) { events = append(events, e) }, nil))
	if err != nil || msg != "re-applied the previous Salt states of lvm" {
		t.Fatalf("Rollback = %q, %v", msg, err)
	}
	c := f.applyCalls()[0]
	if c.Test || c.Text != prev.Units[0].Salt.Text || c.Pillar["size"] != "100G" {
		t.Errorf("rollback ran %+v, want the previous text and pillar for real", c)
	}
	if len(events) != 2 {
		t.Errorf("%d rollback events, want 2", len(events))
	}
}

// A destroy runs no Salt state and says, by name, what the unit's states leave on each
// minion; when the states cannot be compiled it still plans, saying why nothing is named.
func TestDestroyKeepsStates(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(string, string, map[string]any, bool) any { t.Error("a destroy ran states"); return nil }
	l := newLayer(t, f, nil)
	spec := lvmSpec()
	spec.Units[0].Destroy = true
	p, err := l.Plan(context.Background(), spec)
	want := keptNote + " (lvm's states could not be listed: minion node1 did not compile the state)"
	if err != nil || p.Status != executor.PlanNoChanges || p.Summary != want || p.Kept != want {
		t.Fatalf("Plan of a destroy = %+v, %v; want %q", p, err, want)
	}
	// What the states manage is named, per minion, from their compiled form.
	f.low = func(minion, sls string) any {
		return []map[string]any{
			{"state": "file", "__id__": "lvm-marker", "name": "/srv/nextcloud/.eos-volume", "fun": "managed"},
			{"state": "lvm", "__id__": "data-nextcloud", "name": "data-nextcloud", "fun": "lv_present"},
			{"state": "test", "__id__": "guard", "name": "guard", "fun": "nop"},
		}
	}
	p, err = l.Plan(context.Background(), spec)
	want = "kept on node1: /srv/nextcloud/.eos-volume, lvm.lv_present data-nextcloud — Salt does not undo host configuration; remove them by hand when no longer needed"
	if err != nil || p.Status != executor.PlanNoChanges || p.Kept != want || p.Digest != "salt: kept\n" {
		t.Errorf("Plan of a destroy = %+v, %v; want kept %q", p, err, want)
	}
	if p, err := l.Plan(context.Background(), executor.Spec{Env: "production", Units: []executor.Unit{{Service: "x"}}}); err != nil || p.Status != executor.PlanNothing {
		t.Fatalf("Plan without a Salt part = %+v, %v", p, err)
	}
}
