package executor

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func destroySpec() Spec {
	s := spec()
	s.Verb = "destroy"
	for i := range s.Units {
		s.Units[i].Destroy = true
	}
	return s
}

// A destroy stops the workloads before the hosts and volumes they run on go, and touches host
// configuration last: Nomad → Terraform → Salt, in the plan (so the preview and the progress
// post show that order) and in the run. A create keeps Salt → Terraform → Nomad. Before, a
// destroy deleted servers and the data volume while the Nomad jobs still ran.
func TestDestroyRunsNomadThenTerraformThenSalt(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  Spec
		order string
	}{
		{"create", spec(), "salt,terraform,nomad"},
		{"destroy", destroySpec(), "nomad,terraform,salt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []string
			r, err := NewRunner(RunnerConfig{Layers: []Layer{
				&recLayer{name: Salt, calls: &calls}, &recLayer{name: Terraform, calls: &calls}, &recLayer{name: Nomad, calls: &calls},
			}})
			if err != nil {
				t.Fatal(err)
			}
			plan, err := r.Plan(context.Background(), tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			var layers []string
			for _, lp := range plan.Layers {
				layers = append(layers, string(lp.Layer))
			}
			if got := strings.Join(layers, ","); got != tc.order {
				t.Errorf("plan layers = %s, want %s", got, tc.order)
			}
			if len(calls) != 3 {
				t.Errorf("plan calls = %v, want one per layer", calls)
			}
			calls = nil
			want := "apply " + strings.ReplaceAll(tc.order, ",", ",apply ")
			var events []string
			res := r.Apply(context.Background(), plan, nil, Observe(func(e Event) { events = append(events, string(e.Layer)) }, nil))
			if got := strings.Join(calls, ","); got != want {
				t.Errorf("calls = %s, want %s", got, want)
			}
			if got := strings.Join(events, ","); got != tc.order {
				t.Errorf("progress events = %s, want %s", got, tc.order)
			}
			if res.Failed || len(res.Layers) != 3 || string(res.Layers[0].Layer) != strings.Split(tc.order, ",")[0] {
				t.Errorf("result = %+v", res)
			}
		})
	}
}

// Rolling back a failed destroy undoes the layers it applied in the reverse of the destroy's
// order: the hosts come back (Terraform) before the workloads that run on them (Nomad).
func TestDestroyRollbackBringsHostsBackBeforeWorkloads(t *testing.T) {
	var calls []string
	r, err := NewRunner(RunnerConfig{Rollback: RollbackAll, Layers: []Layer{
		&recLayer{name: Salt, calls: &calls, failWith: errors.New("file.absent srv: permission denied")},
		&recLayer{name: Terraform, calls: &calls},
		&recLayer{name: Nomad, calls: &calls},
	}})
	if err != nil {
		t.Fatal(err)
	}
	plan, _ := r.Plan(context.Background(), destroySpec())
	calls = nil
	res := r.Apply(context.Background(), plan, nil, Observe(func(Event) {}, nil))
	want := "apply nomad,apply terraform,apply salt,rollback salt,rollback terraform,rollback nomad"
	if got := strings.Join(calls, ","); got != want {
		t.Errorf("calls = %s, want %s", got, want)
	}
	if salt := res.Layers[2]; !res.Failed || salt.Layer != Salt || salt.Status != ResultFailed || salt.Rollback != "undone; Terraform: undone; Nomad: undone" {
		t.Errorf("salt result = %+v", salt)
	}
}

// A spec that destroys some units and keeps others is not a destroy: it runs in the order of
// a create, so what it keeps is configured before its workloads start.
func TestMixedSpecKeepsTheCreateOrder(t *testing.T) {
	s := spec()
	s.Units = append(s.Units, Unit{Service: "old", Destroy: true, Nomad: &NomadPart{}})
	if got := RunOrder(s); len(got) != 3 || got[0] != Salt || got[2] != Nomad {
		t.Errorf("order = %v, want Salt, Terraform, Nomad", got)
	}
	if got := RunOrder(Spec{Verb: "destroy"}); got[0] != Salt {
		t.Errorf("a spec with no units ran as a destroy: %v", got)
	}
}

// Plan.Failures names each reason a layer gives for failing, under the layer's name, in run
// order.
func TestPlanFailuresNameTheirLayer(t *testing.T) {
	p := Plan{Layers: []LayerPlan{
		{Layer: Salt, Failures: []string{"eos-minion: pkg.installed xfsprogs: No package xfsprogs available"}},
		{Layer: Terraform},
		{Layer: Nomad, Failures: []string{"job gitea-local: cannot place group app (1 allocation): no node has the docker driver"}},
	}}
	got := strings.Join(p.Failures(), "\n")
	want := "Salt: eos-minion: pkg.installed xfsprogs: No package xfsprogs available\nNomad: job gitea-local: cannot place group app (1 allocation): no node has the docker driver"
	if got != want {
		t.Errorf("failures =\n%s\nwant\n%s", got, want)
	}
}

// A layer a destroy leaves in place (Salt: the files its states manage) is reported "kept" in
// the run's result, as the preview said, not "no changes".
func TestKeptLayerIsReportedKept(t *testing.T) {
	if got := skipped(LayerPlan{Layer: Salt, Status: PlanNoChanges, Kept: "kept on m1: /srv/x"}).Summary; got != "kept" {
		t.Errorf("summary = %q, want kept", got)
	}
	if got := skipped(LayerPlan{Layer: Salt, Status: PlanNoChanges}).Summary; got != "no changes" {
		t.Errorf("summary = %q, want no changes", got)
	}
}
