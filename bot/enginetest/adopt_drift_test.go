package enginetest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/salt"
)

// adoptPlans are the stored plans of adopts.
func adoptPlans(t *testing.T, h *eostest.Harness) int {
	t.Helper()
	plans, err := h.Store.Plans(context.Background(), func(p *store.Plan) bool { return p.Plan.Spec.Verb == "adopt" })
	if err != nil {
		t.Fatal(err)
	}
	return len(plans)
}

// A data volume grown by hand is drift Terraform cannot plan around (the provider will not
// shrink it back), and stays manageable: drift names the attribute that changed, said once;
// adopt declares the real size as the flag it comes from (--storage 200G → 300G), after which
// drift is clean; and a destroy of a volume grown by hand again plans and runs.
func TestVolumeGrownByHandStaysManageable(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	eostest.Deploy(t, h, "nextcloud --storage 200G")
	eostest.GrowVolume(t, h, "data-nextcloud-local", 300)

	after := h.Last()
	h.Say("alice", "@eos drift nextcloud")
	got := h.WaitText(after, "1 of 1 services drifted")
	if want := "eoslab_volume.data size_gb 200 → 300, changed outside Terraform"; !strings.Contains(got.Text, want) || strings.Contains(got.Text, "unknown") {
		t.Errorf("drift does not name the attribute that changed (%q):\n%s", want, got.Text)
	}
	if n := strings.Count(got.Text, "size_gb"); n != 1 {
		t.Errorf("drift says size_gb %d times, want once:\n%s", n, got.Text)
	}

	p, id := eostest.Preview(t, h, "alice", "@eos adopt nextcloud")
	for _, want := range []string{"adopt nextcloud in local", "Declared values: --storage 200G → 300G",
		"Terraform | the state takes in +0 ~1 −0: eoslab_volume.data; nothing changes in the cloud"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("adopt preview lacks %q:\n%s", want, p.Text)
		}
	}
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · done in")
	d, err := h.Store.Declared(context.Background(), "local/nextcloud")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Spec.Units[0].Values["storage"]; got != "300G" {
		t.Errorf("declared --storage = %q after the adopt, want 300G", got)
	}
	if d.Spec.Adopt || len(d.Spec.AdoptedValues) > 0 {
		t.Errorf("the declared spec is still marked as an adopt: %+v", d.Spec)
	}
	after = h.Last()
	h.Say("alice", "@eos drift nextcloud")
	h.WaitText(after, "nextcloud in local matches its declared state")

	eostest.GrowVolume(t, h, "data-nextcloud-local", 400)
	dp, did := eostest.Preview(t, h, "alice", "@eos destroy nextcloud")
	if !strings.Contains(dp.Text, "eoslab_volume.data") {
		t.Errorf("the destroy preview does not name the volume:\n%s", dp.Text)
	}
	h.React("bob", dp.ID, "+1")
	h.WaitText(dp.ID, "Run "+did+" · done in")
	if _, err := os.Stat(filepath.Join(h.Cloud(), "volume", "data-nextcloud-local.json")); !os.IsNotExist(err) {
		t.Errorf("the volume is still there after the destroy (stat: %v)", err)
	}
}

// handEditedSalt stands for a Salt layer whose file was edited by hand on the minion once
// edited is set: its drift names the state, and an adopt's plan leaves it as is, as the real
// layer's does (executor/salt's TestRealAdoptLeavesSaltAsItIs).
type handEditedSalt struct {
	edited  atomic.Bool
	applies atomic.Int32
}

const editedState = "eos-minion: file.managed grafana-config (srv/grafana-local/grafana.ini)"

func (l *handEditedSalt) Name() executor.LayerName { return executor.Salt }

func (l *handEditedSalt) Plan(_ context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	p := executor.LayerPlan{Layer: executor.Salt, Status: executor.PlanNoChanges, Digest: "salt\n"}
	switch {
	case spec.Adopt && l.edited.Load():
		p.Kept = salt.AdoptKept([]string{editedState})
		p.Summary = p.Kept
	case l.edited.Load():
		p.Status, p.Changes = executor.PlanChanges, []executor.Change{{Unit: spec.Target, Action: executor.Update, Address: editedState}}
	}
	return p, nil
}

func (l *handEditedSalt) Apply(context.Context, executor.Spec, executor.LayerPlan, executor.Observer) (executor.LayerResult, error) {
	l.applies.Add(1)
	return executor.LayerResult{Layer: executor.Salt, Status: executor.ResultOK}, nil
}

func (l *handEditedSalt) Drift(_ context.Context, spec executor.Spec) (executor.LayerDrift, error) {
	if !l.edited.Load() {
		return executor.LayerDrift{Layer: executor.Salt, Status: executor.DriftClean}, nil
	}
	return executor.LayerDrift{Layer: executor.Salt, Status: executor.DriftDrifted,
		Changes: []executor.Change{{Unit: spec.Target, Action: executor.Update, Address: editedState, Detail: "is set to be changed"}}}, nil
}

func (l *handEditedSalt) Rollback(context.Context, executor.Spec, *executor.Spec, executor.Observer) (string, error) {
	return "", nil
}

// Drift that is only Salt's cannot be adopted (the state is the source of truth): the drift
// answer offers no 📥 and says how to keep the change; a 📥 anyway, and a typed adopt, answer
// that there is nothing to adopt and why, and plan nothing.
func TestSaltOnlyDriftIsNotAdopted(t *testing.T) {
	t.Parallel()
	sl := &handEditedSalt{}
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{sl}})
	eostest.Deploy(t, h, "grafana")
	sl.edited.Store(true)
	sl.applies.Store(0)

	after := h.Last()
	h.Say("alice", "@eos drift grafana")
	got := h.WaitText(after, "1 of 1 services drifted", editedState)
	if strings.Contains(got.Text, "📥") || !strings.Contains(got.Text, "Salt drift is not adopted: to keep it, change the blueprint or its pillar") {
		t.Errorf("the drift answer offers 📥 on Salt-only drift, or does not say how to keep it:\n%s", got.Text)
	}

	nothing := []string{"Nothing to adopt in grafana in local: only Salt differs from its declared state, and Salt drift cannot be adopted",
		editedState, "change the blueprint or its pillar", "@eos reconcile grafana in local", "Nothing planned."}
	after = h.Last()
	h.React("alice", got.ID, "📥")
	h.WaitText(after, nothing...)
	after = h.Last()
	h.Say("alice", "@eos adopt grafana")
	h.WaitText(after, nothing...)
	h.Idle()
	if n := adoptPlans(t, h); n != 0 {
		t.Errorf("%d adopt plans, want none", n)
	}
	if n := sl.applies.Load(); n != 0 {
		t.Errorf("Salt applied %d times, want none", n)
	}
}
