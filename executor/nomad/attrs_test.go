package nomad

import (
	"strings"
	"testing"

	"github.com/hashicorp/nomad/api"
)

// A destructive update touching many fields in several tasks names only the first few in its
// detail, but its Attrs list every changed field, deep and whole, with old and new values:
// the full plan never cuts.
func TestGroupChangeListsEveryFieldInFull(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 90)
	edited := func(name, old, new string) *api.FieldDiff {
		return &api.FieldDiff{Type: diffEdited, Name: name, Old: old, New: new}
	}
	g := &api.TaskGroupDiff{Type: diffEdited, Name: "app", Updates: map[string]uint64{updDestructive: 2},
		Fields: []*api.FieldDiff{edited("Count", "1", "2"), {Type: diffNone, Name: "Same", Old: "a", New: "a"}},
		Tasks: []*api.TaskDiff{
			{Type: diffEdited, Name: "web", Objects: []*api.ObjectDiff{
				{Type: diffEdited, Name: "Config", Fields: []*api.FieldDiff{edited("image", "nginx:1.25", "nginx:1.27"), edited("args", "a", long)}},
				{Type: diffEdited, Name: "Env", Fields: []*api.FieldDiff{edited("TZ", "UTC", "CET"), {Type: diffAdded, Name: "LANG", New: "C"}}},
			}},
			{Type: diffEdited, Name: "worker", Fields: []*api.FieldDiff{edited("Driver", "exec", "docker"), edited("User", "a", "b")}},
			{Type: diffAdded, Name: "sidecar"},
			{Type: diffDeleted, Name: "cron"},
		},
	}
	gp, ok := groupPlanOf("svc", "svc-local", nil, g)
	if !ok {
		t.Fatal("no change")
	}
	if !strings.HasSuffix(gp.change.Detail, ", …") {
		t.Errorf("detail %q: the preview's detail should stay short", gp.change.Detail)
	}
	want := []string{
		"destructive update ×2",
		`count "1" → "2"`,
		`task web Config.image "nginx:1.25" → "nginx:1.27"`,
		`task web Config.args "a" → "` + long + `"`,
		`task web Env.TZ "UTC" → "CET"`,
		`task web Env.LANG (none) → "C"`,
		`task worker Driver "exec" → "docker"`,
		`task worker User "a" → "b"`,
		"new task sidecar",
		"removed task cron",
	}
	if got := strings.Split(gp.change.Attrs, "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Attrs:\n%s\nwant:\n%s", gp.change.Attrs, strings.Join(want, "\n"))
	}
}

// A change whose detail says it all (a count) gets no Attrs.
func TestCountOnlyChangeHasNoAttrs(t *testing.T) {
	t.Parallel()
	g := &api.TaskGroupDiff{Type: diffEdited, Name: "app", Updates: map[string]uint64{updCreate: 1},
		Fields: []*api.FieldDiff{{Type: diffEdited, Name: "Count", Old: "1", New: "2"}}}
	gp, _ := groupPlanOf("svc", "svc-local", nil, g)
	if gp.change.Attrs != "" {
		t.Errorf("Attrs = %q, want none", gp.change.Attrs)
	}
}

// A new group lists every setting of its new tasks, so the full plan of a create shows the
// image and resources it will run, and a policy reading the plan judges a create as it judges
// an update.
func TestNewGroupListsItsTasksSettings(t *testing.T) {
	t.Parallel()
	added := func(name, v string) *api.FieldDiff { return &api.FieldDiff{Type: diffAdded, Name: name, New: v} }
	g := &api.TaskGroupDiff{Type: diffAdded, Name: "app", Updates: map[string]uint64{updCreate: 1},
		Fields:  []*api.FieldDiff{added("Count", "1")},
		Objects: []*api.ObjectDiff{{Type: diffAdded, Name: "RestartPolicy", Fields: []*api.FieldDiff{added("Delay", "15000000000")}}},
		Tasks: []*api.TaskDiff{{Type: diffAdded, Name: "web", Fields: []*api.FieldDiff{added("Driver", "docker"), added("KillTimeout", "5000000000"), added("Leader", "false")},
			Objects: []*api.ObjectDiff{
				{Type: diffAdded, Name: "Config", Fields: []*api.FieldDiff{added("image", "nginx:latest")}},
				{Type: diffAdded, Name: "Resources", Fields: []*api.FieldDiff{added("MemoryMB", "9000"), added("Cores", "0")}},
				{Type: diffAdded, Name: "LogConfig", Fields: []*api.FieldDiff{added("MaxFiles", "10")}},
			}}},
	}
	gp, ok := groupPlanOf("svc", "svc-local", nil, g)
	if !ok || gp.change.Action != "create" {
		t.Fatalf("change %+v, want a create", gp.change)
	}
	// What the task runs and with how much; not Nomad's defaults, not zero values, not the
	// group's policies, not the count (the detail says it).
	want := []string{
		"new task web",
		`task web Driver (none) → "docker"`,
		`task web Config.image (none) → "nginx:latest"`,
		`task web Resources.MemoryMB (none) → "9000"`,
	}
	if got := gp.change.Attrs; got != strings.Join(want, "\n") {
		t.Errorf("Attrs:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
