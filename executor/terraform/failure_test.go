package terraform

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// failingModule creates a, then fails creating b, which depends on a.
const failingModule = `
variable "size" {
  type = string
}

resource "terraform_data" "a" {
  input = var.size
}

resource "terraform_data" "b" {
  input      = "b"
  depends_on = [terraform_data.a]

  provisioner "local-exec" {
    command = "echo disk quota exceeded >&2; false"
  }
}
`

// goodModule is the module as it was before b was added.
const goodModule = `
variable "size" {
  type = string
}

resource "terraform_data" "a" {
  input = var.size
}
`

func moduleSpec(module, size string) executor.Spec {
	return spec(unit("web", map[string]string{"main.tf": module}, map[string]any{"size": size}))
}

func TestFailedApplyThenRollbackRemovesEverything(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	s := moduleSpec(failingModule, "small")
	p := mustPlan(t, l, s)

	var events []executor.Event
	res, err := l.Apply(testCtx(t), s, p, executor.Observe(func(e executor.Event) { events = append(events, e) }, nil))
	if err == nil {
		t.Fatal("apply succeeded, want the local-exec failure")
	}
	if res.Status != executor.ResultFailed || res.Failed == nil || res.Failed.Address != "terraform_data.b" {
		t.Fatalf("result = %+v, want failed at terraform_data.b", res)
	}
	for _, want := range []string{"terraform apply for local/web", "terraform_data.b", "local-exec provisioner error"} {
		if !strings.Contains(res.Error, want) || !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", res.Error, want)
		}
	}
	if res.Done != 1 || res.Summary != "+1 ~0 −0 applied before the failure: terraform_data.a" {
		t.Errorf("done %d, summary %q; want 1 and a listed as applied", res.Done, res.Summary)
	}
	if last := events[len(events)-1]; last.Message != "failed creating terraform_data.b" {
		t.Errorf("last event = %+v", last)
	}
	if got := stateAddresses(t, l, "local", "web"); !slices.Contains(got, "terraform_data.a") {
		t.Errorf("state has %v, want terraform_data.a already created", got)
	}

	sentence, err := l.Rollback(testCtx(t), s, nil, executor.Observe(nil, nil))
	if err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if sentence != "nothing created by Terraform remains" {
		t.Errorf("sentence = %q", sentence)
	}
	if got := stateAddresses(t, l, "local", "web"); len(got) != 0 {
		t.Errorf("after rollback the state has %v", got)
	}
}

func TestRollbackReappliesPrevious(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	previous := moduleSpec(goodModule, "small")
	mustApply(t, l, previous, mustPlan(t, l, previous))

	s := moduleSpec(failingModule, "large")
	if _, err := l.Apply(testCtx(t), s, mustPlan(t, l, s), executor.Observe(nil, nil)); err == nil {
		t.Fatal("apply succeeded, want a failure")
	}
	var events []executor.Event
	sentence, err := l.Rollback(testCtx(t), s, &previous, executor.Observe(func(e executor.Event) { events = append(events, e) }, nil))
	if err != nil {
		t.Fatalf("Rollback: %v", err)
	}
	if sentence != "re-applied the previous approved state" {
		t.Errorf("sentence = %q", sentence)
	}
	if got := stateAddresses(t, l, "local", "web"); !slices.Equal(got, []string{"terraform_data.a"}) {
		t.Errorf("state has %v, want only terraform_data.a", got)
	}
	if len(events) == 0 {
		t.Error("rollback reported no progress")
	}
	if p := mustPlan(t, l, previous); p.Status != executor.PlanNoChanges {
		t.Errorf("previous spec after rollback plans %+v, want no changes", p.Changes)
	}
}

// A saved plan that can no longer be applied is Eos's problem, not a Terraform failure: Apply
// halts (executor.HaltError), so the runner stops the run and rolls nothing back.
func TestStalePlan(t *testing.T) {
	t.Parallel()
	const stopped = "stopped before changing anything: the saved plan is stale (state changed since it was planned); nothing was rolled back"
	t.Run("state changed since the plan", func(t *testing.T) {
		l := newTestLayer(t)
		s := serverSpec("small")
		old := mustPlan(t, l, s)
		mustApply(t, l, s, mustPlan(t, l, s)) // the state moves on behind old's back
		res, err := l.Apply(testCtx(t), s, old, executor.Observe(nil, nil))
		var halt *executor.HaltError
		if !errors.Is(err, ErrStalePlan) || !errors.As(err, &halt) || !halt.Untouched {
			t.Fatalf("err = %v, want ErrStalePlan as an untouched executor.HaltError", err)
		}
		want := "terraform apply for local/nextcloud: the saved plan is stale (the state changed after it was made); plan again"
		if err.Error() != want || res.Error != stopped || res.Status != executor.ResultHalted {
			t.Errorf("err = %q, result %+v\nwant %q and %q", err, res, want, stopped)
		}
	})
	t.Run("file changed since it was planned", func(t *testing.T) {
		l := newTestLayer(t)
		s := serverSpec("small")
		p := mustPlan(t, l, s)
		path := savedPlans(t, p)[0]
		if err := os.WriteFile(path, []byte("not the plan that was approved"), 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := l.Apply(testCtx(t), s, p, executor.Observe(nil, nil))
		if !errors.Is(err, ErrStalePlan) || !errors.Is(err, executor.ErrNotApplied) || res.Status != executor.ResultHalted {
			t.Fatalf("err = %v, result %+v; want a halt for a stale plan", err, res)
		}
		if _, statErr := os.Stat(filepath.Join(l.workDir, "local", "nextcloud", "terraform.tfstate")); statErr == nil {
			if got := stateAddresses(t, l, "local", "nextcloud"); len(got) != 0 {
				t.Errorf("a stale plan changed the state: %v", got)
			}
		}
	})
	t.Run("file gone", func(t *testing.T) {
		l := newTestLayer(t)
		s := serverSpec("small")
		p := mustPlan(t, l, s)
		mustApply(t, l, s, p)
		res, err := l.Apply(testCtx(t), s, p, executor.Observe(nil, nil)) // a replay: the applied file was removed
		if !errors.Is(err, executor.ErrNotApplied) || !strings.Contains(res.Error, "stopped before changing anything: the saved plan file is gone") {
			t.Fatalf("err = %v, result %+v; want a halt for a missing plan", err, res)
		}
	})
}

func TestDrift(t *testing.T) {
	t.Parallel()
	l := newTestLayer(t)
	s := serverSpec("small")
	mustApply(t, l, s, mustPlan(t, l, s))

	tests := []struct {
		name   string
		spec   executor.Spec
		status executor.DriftStatus
		check  func(t *testing.T, d executor.LayerDrift)
	}{
		{name: "same spec", spec: serverSpec("small"), status: executor.DriftClean},
		{name: "declared size differs", spec: serverSpec("large"), status: executor.DriftDrifted,
			check: func(t *testing.T, d executor.LayerDrift) {
				want := executor.Change{Unit: "nextcloud", Action: executor.Update, Address: "terraform_data.server",
					Detail: `input "small" → "large" to match the declaration`}
				if !slices.Contains(d.Changes, want) {
					t.Errorf("changes = %+v, want %+v among them", d.Changes, want)
				}
			}},
		{name: "broken module", status: executor.DriftUnknown,
			spec: spec(unit("nextcloud", map[string]string{"main.tf": `resource "terraform_data" "server" {`}, nil)),
			check: func(t *testing.T, d executor.LayerDrift) {
				if !strings.HasPrefix(d.Reason, "terraform init for local/nextcloud: Unclosed configuration block: ") || strings.Contains(d.Reason, "exit status") {
					t.Errorf("reason = %q, want a human terraform diagnostic", d.Reason)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := l.Drift(testCtx(t), tt.spec)
			if err != nil {
				t.Fatalf("Drift: %v", err)
			}
			if d.Status != tt.status {
				t.Fatalf("drift = %+v, want %s", d, tt.status)
			}
			if tt.check != nil {
				tt.check(t, d)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(l.workDir, "local", "nextcloud", driftFile)); !os.IsNotExist(err) {
		t.Errorf("drift left its plan file behind: %v", err)
	}
}
