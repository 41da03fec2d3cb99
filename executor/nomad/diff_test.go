package nomad

import (
	"strings"
	"testing"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

func testJob(groups map[string]int) *api.Job {
	j := &api.Job{ID: ptr("web-local"), Datacenters: []string{"dc1"}}
	for name, n := range groups {
		g := &api.TaskGroup{Name: ptr(name), Tasks: []*api.Task{{Name: "main", Driver: "docker"}}}
		if n >= 0 {
			g.Count = ptr(n)
		}
		j.TaskGroups = append(j.TaskGroups, g)
	}
	return j
}

func ptr[T any](v T) *T { return &v }

func TestPlanSummaries(t *testing.T) {
	t.Parallel()
	countEdit := &api.FieldDiff{Type: diffEdited, Name: "Count", Old: "1", New: "3"}
	configEdit := &api.TaskDiff{Type: diffEdited, Name: "main", Objects: []*api.ObjectDiff{{Type: diffEdited, Name: "Config",
		Fields: []*api.FieldDiff{{Type: diffEdited, Name: "image", Old: "grafana:10", New: "grafana:11"}, {Type: diffNone, Name: "ports"}}}}}
	tests := []struct {
		name     string
		kind     jobAction
		job      *api.Job
		diff     *api.JobDiff
		failures []string
		summary  string
		changes  []executor.Change
	}{
		{
			name: "new job", kind: actionRegisterNew, job: testJob(map[string]int{"app": 1, "db": -1}),
			diff: &api.JobDiff{Type: diffAdded, TaskGroups: []*api.TaskGroupDiff{
				{Type: diffAdded, Name: "app", Updates: map[string]uint64{updCreate: 1}},
				{Type: diffAdded, Name: "db", Updates: map[string]uint64{updCreate: 1}},
			}},
			summary: "job web-local: new, groups app ×1, db ×1",
			changes: []executor.Change{
				{Unit: "web", Action: executor.Create, Address: "web-local/app", Detail: "new group, 1 allocation"},
				{Unit: "web", Action: executor.Create, Address: "web-local/db", Detail: "new group, 1 allocation"},
			},
		},
		{
			name: "in-place update", kind: actionRegister, job: testJob(map[string]int{"app": 2}),
			diff: &api.JobDiff{Type: diffEdited, TaskGroups: []*api.TaskGroupDiff{{
				Type: diffEdited, Name: "app", Updates: map[string]uint64{updInPlace: 2},
				Objects: []*api.ObjectDiff{{Type: diffEdited, Name: "Update"}},
			}}},
			summary: "job web-local: in-place update of group app",
			changes: []executor.Change{{Unit: "web", Action: executor.Update, Address: "web-local/app", Detail: "in-place update ×2: Update"}},
		},
		{
			name: "destructive update and unchanged group", kind: actionRegister, job: testJob(map[string]int{"app": 1, "db": 1}),
			diff: &api.JobDiff{Type: diffEdited, TaskGroups: []*api.TaskGroupDiff{
				{Type: diffEdited, Name: "app", Updates: map[string]uint64{updDestructive: 1}, Tasks: []*api.TaskDiff{configEdit}},
				{Type: diffNone, Name: "db", Updates: map[string]uint64{updIgnore: 1}},
			}},
			summary: "job web-local: destructive update of group app ×1",
			changes: []executor.Change{{Unit: "web", Action: executor.Replace, Address: "web-local/app", Detail: "destructive update ×1: task main (Config)", Forces: "task main Config.image"}},
		},
		{
			name: "destructive update in batches", kind: actionRegister, job: testJob(map[string]int{"app": 3}),
			diff: &api.JobDiff{Type: diffEdited, TaskGroups: []*api.TaskGroupDiff{
				{Type: diffEdited, Name: "app", Updates: map[string]uint64{updDestructive: 1, updIgnore: 2}, Tasks: []*api.TaskDiff{configEdit}},
			}},
			summary: "job web-local: destructive update of group app ×3",
			changes: []executor.Change{{Unit: "web", Action: executor.Replace, Address: "web-local/app", Detail: "destructive update ×3: task main (Config)", Forces: "task main Config.image"}},
		},
		{
			name: "scale up", kind: actionRegister, job: testJob(map[string]int{"app": 3}),
			diff: &api.JobDiff{Type: diffEdited, TaskGroups: []*api.TaskGroupDiff{{
				Type: diffEdited, Name: "app", Fields: []*api.FieldDiff{countEdit}, Updates: map[string]uint64{updCreate: 2, updInPlace: 1},
			}}},
			summary: "job web-local: group app count 1 → 3",
			changes: []executor.Change{{Unit: "web", Action: executor.Update, Address: "web-local/app", Detail: "in-place update ×1, +2 allocations: count 1 → 3"}},
		},
		{
			name: "group removed and added", kind: actionRegister, job: testJob(map[string]int{"web": 2}),
			diff: &api.JobDiff{Type: diffEdited, TaskGroups: []*api.TaskGroupDiff{
				{Type: diffDeleted, Name: "old", Updates: map[string]uint64{updDestroy: 1}},
				{Type: diffAdded, Name: "web", Updates: map[string]uint64{updCreate: 2}},
			}},
			summary: "job web-local: remove group old, new group web ×2",
			changes: []executor.Change{
				{Unit: "web", Action: executor.Delete, Address: "web-local/old", Detail: "group removed, stops 1 allocation"},
				{Unit: "web", Action: executor.Create, Address: "web-local/web", Detail: "new group, 2 allocations"},
			},
		},
		{
			name: "job settings only", kind: actionRegister, job: testJob(map[string]int{"app": 1}),
			diff: &api.JobDiff{Type: diffEdited, Fields: []*api.FieldDiff{{Type: diffEdited, Name: "Priority", Old: "50", New: "70"}},
				TaskGroups: []*api.TaskGroupDiff{{Type: diffNone, Name: "app", Updates: map[string]uint64{updIgnore: 1}}}},
			summary: "job web-local: update of job settings: Priority",
			changes: []executor.Change{{Unit: "web", Action: executor.Update, Address: "web-local", Detail: "job settings changed: Priority",
				Attrs: "job settings changed\nPriority \"50\" → \"70\""}},
		},
		{
			name: "no changes", kind: actionNone, job: testJob(map[string]int{"app": 1}),
			diff:    &api.JobDiff{Type: diffNone, TaskGroups: []*api.TaskGroupDiff{{Type: diffNone, Name: "app", Updates: map[string]uint64{updIgnore: 1}}}},
			summary: "job web-local: no changes",
		},
		{
			name: "placement failure", kind: actionRegisterNew, job: testJob(map[string]int{"app": 1}),
			diff:     &api.JobDiff{Type: diffAdded, TaskGroups: []*api.TaskGroupDiff{{Type: diffAdded, Name: "app", Updates: map[string]uint64{updCreate: 1}}}},
			failures: []string{"cannot place group app (1 allocation): no node has the docker driver"},
			summary:  "job web-local: new, group app ×1 — cannot place group app (1 allocation): no node has the docker driver",
			changes:  []executor.Change{{Unit: "web", Action: executor.Create, Address: "web-local/app", Detail: "new group, 1 allocation"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plans := groupPlans("web", "web-local", tt.job, tt.diff)
			var changes []executor.Change
			for _, p := range plans {
				c := p.change
				c.Nomad = nil // the change as data has its own tests (groupdata_test.go)
				changes = append(changes, c)
			}
			if len(changes) != len(tt.changes) {
				t.Fatalf("changes = %+v, want %+v", changes, tt.changes)
			}
			for i := range changes {
				if changes[i] != tt.changes[i] {
					t.Errorf("change %d = %+v, want %+v", i, changes[i], tt.changes[i])
				}
			}
			if got := jobSummary("web-local", tt.kind, tt.job, plans, tt.failures); got != tt.summary {
				t.Errorf("summary = %q, want %q", got, tt.summary)
			}
		})
	}
}

func TestChangedNamesAreCapped(t *testing.T) {
	t.Parallel()
	var fields []*api.FieldDiff
	for _, n := range []string{"A", "B", "C", "D", "E", "F"} {
		fields = append(fields, &api.FieldDiff{Type: diffEdited, Name: n})
	}
	fields = append(fields, &api.FieldDiff{Type: diffNone, Name: "Same"})
	if got := parens(changedNames(fields, nil, nil)); got != ": A, B, C, D, …" {
		t.Errorf("parens = %q", got)
	}
}

func TestDescribeMetric(t *testing.T) {
	t.Parallel()
	job := testJob(map[string]int{"app": 1})
	tests := []struct {
		name    string
		metric  api.AllocationMetric
		missing []string
		want    string
	}{
		{"missing docker", api.AllocationMetric{NodesEvaluated: 1, NodesFiltered: 1, ConstraintFiltered: map[string]int{filterDrivers: 1}},
			[]string{"docker"}, "no node has the docker driver"},
		{"missing two drivers", api.AllocationMetric{NodesEvaluated: 2, ConstraintFiltered: map[string]int{filterDrivers: 2}},
			[]string{"docker", "java"}, "no node has the docker, java drivers"},
		{"drivers unknown", api.AllocationMetric{NodesEvaluated: 2, ConstraintFiltered: map[string]int{filterDrivers: 2}},
			nil, "2 nodes lack a driver the tasks need"},
		{"no nodes", api.AllocationMetric{}, nil, "no ready node in dc1"},
		{"exhausted", api.AllocationMetric{NodesEvaluated: 3, NodesExhausted: 3, DimensionExhausted: map[string]int{"memory": 2, "network: port collision": 1}},
			nil, "not enough memory on 2 nodes; not enough port collision on 1 node"},
		{"constraint", api.AllocationMetric{NodesEvaluated: 1, ConstraintFiltered: map[string]int{"${attr.kernel.name} = windows": 1}},
			nil, "1 node excluded by constraint ${attr.kernel.name} = windows"},
		{"nothing said", api.AllocationMetric{NodesEvaluated: 4}, nil, "none of the 4 nodes evaluated can run it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := describeMetric(&tt.metric, tt.missing, job); got != tt.want {
				t.Errorf("describeMetric = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUnitDigestBindsIndexAndJob(t *testing.T) {
	t.Parallel()
	up := unitPlan{Service: "web", JobID: "web-local", Action: actionRegister, ModifyIndex: 42, JobSHA256: "abc"}
	plans := []groupPlan{{change: executor.Change{Action: executor.Update, Address: "web-local/app", Detail: "in-place update ×1"}}}
	d := unitDigest("local/web", up, plans)
	want := "nomad local/web: register job web-local at modify index 42 sha256:abc\n  update web-local/app: in-place update ×1\n"
	if d != want {
		t.Errorf("digest = %q, want %q", d, want)
	}
	up.ModifyIndex = 43
	if unitDigest("local/web", up, plans) == d {
		t.Error("the digest does not change with the job modify index")
	}
	up.ModifyIndex, up.JobSHA256 = 42, "abd"
	if unitDigest("local/web", up, plans) == d {
		t.Error("the digest does not change with the job")
	}
}

func TestChangedError(t *testing.T) {
	t.Parallel()
	err := error(&ChangedError{Job: "web-local", Planned: 10, Now: 14})
	if !strings.Contains(err.Error(), "job web-local changed since the plan (index 10 → 14); plan again") {
		t.Errorf("message = %q", err)
	}
	if gone := (&ChangedError{Job: "x", Planned: 3}).Error(); !strings.Contains(gone, "(index 3 → removed)") {
		t.Errorf("message = %q", gone)
	}
}
