package nomad

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/nomad/api"
)

// A group's change as data: its count before and after, and each task's driver, image, CPU
// and memory before and after, whether the diff names the setting (changed: old and new) or
// not (unchanged: the planned job's value on both sides); a new task has nothing before, a
// removed one nothing after, a removed group's tasks their values before.
func TestAGroupChangeBecomesData(t *testing.T) {
	t.Parallel()
	job := &api.Job{ID: ptr("web-local"), TaskGroups: []*api.TaskGroup{{Name: ptr("app"), Count: ptr(3), Tasks: []*api.Task{
		{Name: "main", Driver: "docker", Config: map[string]any{"image": "nginx:latest"}, Resources: &api.Resources{CPU: ptr(100), MemoryMB: ptr(9000)}},
		{Name: "side", Driver: "docker", Config: map[string]any{"image": "envoy:1.30"}, Resources: &api.Resources{CPU: ptr(50), MemoryMB: ptr(64)}},
		{Name: "log", Driver: "exec", Resources: &api.Resources{CPU: ptr(10)}},
	}}}}
	g := &api.TaskGroupDiff{Type: diffEdited, Name: "app",
		Fields: []*api.FieldDiff{{Type: diffEdited, Name: "Count", Old: "1", New: "3"}},
		Tasks: []*api.TaskDiff{
			{Type: diffEdited, Name: "main", Objects: []*api.ObjectDiff{
				{Type: diffEdited, Name: "Config", Fields: []*api.FieldDiff{{Type: diffEdited, Name: "image", Old: "nginx:1.25", New: "nginx:latest"}}},
				{Type: diffEdited, Name: "Resources", Fields: []*api.FieldDiff{{Type: diffEdited, Name: "MemoryMB", Old: "256", New: "9000"}}},
			}},
			{Type: diffNone, Name: "side"},
			{Type: diffAdded, Name: "log", Fields: []*api.FieldDiff{{Type: diffAdded, Name: "Driver", New: "exec"}, {Type: diffAdded, Name: "KillTimeout", New: "5000000000"}},
				Objects: []*api.ObjectDiff{{Type: diffAdded, Name: "Resources", Fields: []*api.FieldDiff{{Type: diffAdded, Name: "CPU", New: "10"}, {Type: diffAdded, Name: "MemoryMB", New: "300"}}}}},
			{Type: diffDeleted, Name: "old", Fields: []*api.FieldDiff{{Type: diffDeleted, Name: "Driver", Old: "docker"}},
				Objects: []*api.ObjectDiff{{Type: diffDeleted, Name: "Config", Fields: []*api.FieldDiff{{Type: diffDeleted, Name: "image", Old: "busybox:1"}}}}},
		}}
	want := `{"job":"web-local","group":"app","count":{"before":1,"after":3},"tasks":[` +
		`{"name":"main","action":"update","driver":{"before":"docker","after":"docker"},"image":{"before":"nginx:1.25","after":"nginx:latest"},"cpu":{"before":100,"after":100},"memory_mb":{"before":256,"after":9000},"memory_max_mb":{"before":null,"after":null},"fields":[{"name":"Config.image","before":"nginx:1.25","after":"nginx:latest"},{"name":"Resources.MemoryMB","before":"256","after":"9000"}]},` +
		`{"name":"side","action":"no-op","driver":{"before":"docker","after":"docker"},"image":{"before":"envoy:1.30","after":"envoy:1.30"},"cpu":{"before":50,"after":50},"memory_mb":{"before":64,"after":64},"memory_max_mb":{"before":null,"after":null},"fields":[]},` +
		`{"name":"log","action":"create","driver":{"before":null,"after":"exec"},"image":{"before":null,"after":null},"cpu":{"before":null,"after":10},"memory_mb":{"before":null,"after":300},"memory_max_mb":{"before":null,"after":null},"fields":[{"name":"Driver","before":null,"after":"exec"},{"name":"Resources.CPU","before":null,"after":"10"},{"name":"Resources.MemoryMB","before":null,"after":"300"}]},` +
		`{"name":"old","action":"delete","driver":{"before":"docker","after":null},"image":{"before":"busybox:1","after":null},"cpu":{"before":null,"after":null},"memory_mb":{"before":null,"after":null},"memory_max_mb":{"before":null,"after":null},"fields":[]}],` +
		`"fields":[{"name":"Count","before":"1","after":"3"}]}`
	if got, _ := json.Marshal(groupData("web-local", job, g)); string(got) != want {
		t.Errorf("an edited group as data:\n%s\nwant\n%s", got, want)
	}

	removed := removedGroupData("web-local", job.TaskGroups[0])
	got, _ := json.Marshal(removed.Tasks[0])
	if removed.Count.Before == nil || *removed.Count.Before != 3 || removed.Count.After != nil ||
		string(got) != `{"name":"main","action":"delete","driver":{"before":"docker","after":null},"image":{"before":"nginx:latest","after":null},"cpu":{"before":100,"after":null},"memory_mb":{"before":9000,"after":null},"memory_max_mb":{"before":null,"after":null},"fields":[]}` {
		t.Errorf("a removed group as data: count %+v, first task %s", removed.Count, got)
	}

	added := groupData("web-local", job, &api.TaskGroupDiff{Type: diffAdded, Name: "app"})
	if added.Count.Before != nil || added.Count.After == nil || *added.Count.After != 3 || added.Tasks[0].Action != "create" || added.Tasks[0].Image.Before != nil {
		got, _ := json.Marshal(added)
		t.Errorf("a new group as data: %s", got)
	}
}
