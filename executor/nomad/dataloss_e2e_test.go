package nomad

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// twoGroupTemplate is a raw_exec job with a group standing for a database ("db", which the
// unit marks as holding data) and one standing for a stateless frontend ("app"). Each group's
// task command line and count are variables, so a test can change one group alone.
const twoGroupTemplate = `
variable "db_args" {
  type    = list(string)
  default = ["3600"]
}

variable "db_count" {
  type    = number
  default = 1
}

variable "db_kill_timeout" {
  type    = string
  default = "1s"
}

variable "app_args" {
  type    = list(string)
  default = ["3600"]
}

job "ignored-by-eos" {
  datacenters = ["dc1"]
  type        = "service"

  update {
    max_parallel      = 1
    health_check      = "task_states"
    min_healthy_time  = "1s"
    healthy_deadline  = "15s"
    progress_deadline = "30s"
    auto_revert       = false
  }

  group "db" {
    count = var.db_count

    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "store" {
      driver       = "raw_exec"
      kill_timeout = var.db_kill_timeout

      config {
        command = "/bin/sleep"
        args    = var.db_args
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }

  group "app" {
    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "main" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sleep"
        args    = var.app_args
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`

// dataSpec is a one-unit spec of twoGroupTemplate whose blueprint marks group db as holding
// data; the job is purged when the test ends.
func (e *e2e) dataSpec(service string, vars map[string]any) executor.Spec {
	s := e.spec(service, vars)
	s.Units[0].Nomad.Template = twoGroupTemplate
	s.Units[0].Nomad.HoldsData = []string{"db"}
	return s
}

// dataDestroySpec destroys the unit of dataSpec, which still marks group db.
func (e *e2e) dataDestroySpec(service string) executor.Spec {
	s := e.dataSpec(service, nil)
	s.Verb, s.Units[0].Destroy = "destroy", true
	return s
}

// byGroup indexes a plan's changes by task group; a test fails on a group changed twice.
func byGroup(t *testing.T, p executor.LayerPlan) map[string]executor.Change {
	t.Helper()
	out := map[string]executor.Change{}
	for _, c := range p.Changes {
		g := groupOf(c.Address)
		if _, dup := out[g]; dup {
			t.Fatalf("group %q changed twice in %+v", g, p.Changes)
		}
		out[g] = c
	}
	return out
}

// On the real agent, a plan marks data loss exactly where the blueprint's holds_data group
// loses its allocations: the job stopped, or the group's task replaced (a destructive update,
// as Nomad's scheduler annotates it). An in-place update or a count change of that group, and
// a destructive update of the group that holds nothing, are not data loss.
func TestRealPlanMarksNomadDataLoss(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "vault"
	id := e.id(svc)

	// Running allocations are what a destructive update replaces: without them Nomad's plan
	// has nothing to annotate, so the job is really deployed first.
	base := e.dataSpec(svc, nil)
	created := e.plan(t, base)
	for _, c := range created.Changes {
		if c.Action != executor.Create || c.DataLoss {
			t.Errorf("creating the job: %s %s data loss %v; want a create without data loss", c.Action, c.Address, c.DataLoss)
		}
	}
	if res, _ := e.apply(t, base, created); res.Status != executor.ResultOK {
		t.Fatalf("deploying %s: %+v", id, res)
	}

	cases := []struct {
		name string
		spec executor.Spec
		// want is each changed group's action, and loss its data loss; a group not named
		// must be left alone.
		want map[string]executor.Action
		loss map[string]bool
		// detail is a piece of the db group's detail, when it changes.
		detail string
	}{
		{
			name: "destroy",
			spec: e.dataDestroySpec(svc),
			want: map[string]executor.Action{"db": executor.Delete, "app": executor.Delete},
			loss: map[string]bool{"db": true},
		},
		{
			name:   "destructive update of the marked group",
			spec:   e.dataSpec(svc, map[string]any{"db_args": []any{"3601"}}),
			want:   map[string]executor.Action{"db": executor.Replace},
			loss:   map[string]bool{"db": true},
			detail: "destructive update ×1",
		},
		{
			name:   "in-place update of the marked group",
			spec:   e.dataSpec(svc, map[string]any{"db_kill_timeout": "2s"}),
			want:   map[string]executor.Action{"db": executor.Update},
			detail: "in-place update ×1",
		},
		{
			name:   "count change of the marked group",
			spec:   e.dataSpec(svc, map[string]any{"db_count": 2}),
			want:   map[string]executor.Action{"db": executor.Update},
			detail: "count 1 → 2",
		},
		{
			name: "destructive update of the unmarked group",
			spec: e.dataSpec(svc, map[string]any{"app_args": []any{"3601"}}),
			want: map[string]executor.Action{"app": executor.Replace},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := e.plan(t, tc.spec)
			if p.Status != executor.PlanChanges {
				t.Fatalf("plan = %s %q, want changes", p.Status, p.Summary)
			}
			got := byGroup(t, p)
			for g, c := range got {
				// Nomad moves the allocations of a group the new version leaves alone to that
				// version in place; nothing about it changes, so it is not listed.
				if _, ok := tc.want[g]; !ok {
					t.Errorf("group %s is listed (%s %q, data loss %v) though the edit leaves it alone",
						g, c.Action, c.Detail, c.DataLoss)
				}
			}
			for g, action := range tc.want {
				c, ok := got[g]
				if !ok {
					t.Errorf("no change for group %s among %+v", g, p.Changes)
					continue
				}
				if c.Address != id+"/"+g || c.Unit != svc || c.Action != action || c.DataLoss != tc.loss[g] {
					t.Errorf("group %s: %s %s (unit %q), data loss %v; want %s %s/%s, data loss %v",
						g, c.Action, c.Address, c.Unit, c.DataLoss, action, id, g, tc.loss[g])
				}
				if g == "db" && !strings.Contains(c.Detail, tc.detail) {
					t.Errorf("group db's detail %q lacks %q", c.Detail, tc.detail)
				}
			}
			// The executor's view: a plan with a marked change is a data-loss plan.
			lossy := false
			for _, l := range tc.loss {
				lossy = lossy || l
			}
			pl := executor.Plan{Layers: []executor.LayerPlan{p}}
			if pl.LosesData() != lossy {
				t.Errorf("LosesData = %v, want %v", pl.LosesData(), lossy)
			}
		})
	}

	// Planning changed nothing: the job still runs its first version, both groups healthy.
	j := e.job(t, svc)
	if *j.Version != 0 || *j.Stop || *j.Status != "running" {
		t.Errorf("after the plans: version %d, stop %v, status %s; want version 0 running", *j.Version, *j.Stop, *j.Status)
	}
}
