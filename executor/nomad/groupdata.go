package nomad

import (
	"strconv"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// A change's data (executor.NomadGroup): what the policy set's rules read instead of the
// diff's lines. Values after the change come from the planned job, values before from the
// diff's old side where a field changed and from the planned job where it did not (Nomad's
// diff names only what changed); a removed group's or task's from the diff or the running
// job. A job spec holds no secrets, so values are as they are.

// groupData is group g of job id's change as data; job is the planned job.
func groupData(id string, job *api.Job, g *api.TaskGroupDiff) *executor.NomadGroup {
	d := &executor.NomadGroup{Job: id, Group: g.Name, Tasks: []executor.NomadTask{}, Fields: []executor.FieldChange{}}
	var tg *api.TaskGroup
	if g.Type != diffDeleted {
		tg = taskGroup(job, g.Name)
	}
	count := intPtr(groupCount(job, g.Name))
	switch g.Type {
	case diffAdded:
		d.Count.After = count
	case diffDeleted:
		d.Count.Before = fieldInt(findField(g.Fields, "Count"), true)
	default:
		d.Count.Before, d.Count.After = count, count
		if f := findField(g.Fields, "Count"); f != nil && f.Type == diffEdited {
			d.Count.Before, d.Count.After = fieldInt(f, true), fieldInt(f, false)
		}
		d.Fields = fieldChanges("", g.Fields, g.Objects)
	}
	diffs := map[string]*api.TaskDiff{}
	for _, t := range g.Tasks {
		if t != nil {
			diffs[t.Name] = t
		}
	}
	if tg != nil {
		for _, t := range tg.Tasks {
			if t != nil {
				d.Tasks = append(d.Tasks, taskData(t, diffs[t.Name], g.Type == diffAdded))
				delete(diffs, t.Name)
			}
		}
	}
	for _, t := range g.Tasks { // tasks the plan removes, in the diff's order
		if t != nil && diffs[t.Name] != nil {
			d.Tasks = append(d.Tasks, taskData(nil, t, false))
		}
	}
	return d
}

// jobData is a change to job id's own settings, no group's, as data.
func jobData(id string, d *api.JobDiff) *executor.NomadGroup {
	return &executor.NomadGroup{Job: id, Tasks: []executor.NomadTask{}, Fields: fieldChanges("", d.Fields, d.Objects)}
}

// removedGroupData is group tg of the running job id, which a destroy removes, as data.
func removedGroupData(id string, tg *api.TaskGroup) *executor.NomadGroup {
	d := &executor.NomadGroup{Job: id, Group: deref(tg.Name), Tasks: []executor.NomadTask{}, Fields: []executor.FieldChange{}}
	n := 1
	if tg.Count != nil {
		n = *tg.Count
	}
	d.Count.Before = intPtr(n)
	for _, t := range tg.Tasks {
		if t != nil {
			driver, image, cpu, mem, memMax := taskValues(t)
			d.Tasks = append(d.Tasks, executor.NomadTask{Name: t.Name, Action: executor.Delete, Fields: []executor.FieldChange{},
				Driver: executor.StringChange{Before: driver}, Image: executor.StringChange{Before: image},
				CPU: executor.IntChange{Before: cpu}, MemoryMB: executor.IntChange{Before: mem}, MemoryMaxMB: executor.IntChange{Before: memMax}})
		}
	}
	return d
}

// taskData is one task as data: t as planned (nil for a task the plan removes) and td, its
// diff (nil or None when nothing about it changes). A task of a new group is new.
func taskData(t *api.Task, td *api.TaskDiff, newGroup bool) executor.NomadTask {
	out := executor.NomadTask{Action: executor.NoOp, Fields: []executor.FieldChange{}}
	var after [5]any
	if t != nil {
		out.Name = t.Name
		driver, image, cpu, mem, memMax := taskValues(t)
		after = [5]any{driver, image, cpu, mem, memMax}
	}
	before := after
	switch {
	case newGroup || td != nil && td.Type == diffAdded:
		out.Action, before = executor.Create, [5]any{}
		if td != nil {
			fields, objects := newTaskSettingsOf(td)
			out.Fields = fieldChanges("", fields, objects)
		}
	case td != nil && td.Type == diffDeleted:
		out.Name, out.Action = td.Name, executor.Delete
	case td != nil && td.Type == diffEdited:
		out.Action = executor.Update
		out.Fields = fieldChanges("", td.Fields, td.Objects)
	}
	// What the diff says of the five settings: its old side is before, its new side fills in
	// what the planned job leaves to Nomad's defaults.
	if td != nil && td.Type != diffNone {
		for i, f := range []*api.FieldDiff{findField(td.Fields, "Driver"), objectField(td, "Config", "image"),
			objectField(td, "Resources", "CPU"), objectField(td, "Resources", "MemoryMB"), objectField(td, "Resources", "MemoryMaxMB")} {
			if f == nil || f.Type == diffNone {
				continue
			}
			if out.Action != executor.Create {
				before[i] = settingValue(i, f, true)
			}
			if isNil(after[i]) && out.Action != executor.Delete {
				after[i] = settingValue(i, f, false)
			}
		}
	}
	out.Driver = executor.StringChange{Before: asStr(before[0]), After: asStr(after[0])}
	out.Image = executor.StringChange{Before: asStr(before[1]), After: asStr(after[1])}
	out.CPU = executor.IntChange{Before: asInt(before[2]), After: asInt(after[2])}
	out.MemoryMB = executor.IntChange{Before: asInt(before[3]), After: asInt(after[3])}
	out.MemoryMaxMB = executor.IntChange{Before: asInt(before[4]), After: asInt(after[4])}
	return out
}

// taskValues are a planned task's driver, image, CPU (MHz), memory and memory maximum (MB);
// nil where the job does not say.
func taskValues(t *api.Task) (driver, image *string, cpu, mem, memMax *int) {
	if t.Driver != "" {
		driver = &t.Driver
	}
	if s, ok := t.Config["image"].(string); ok {
		image = &s
	}
	if r := t.Resources; r != nil {
		cpu, mem, memMax = r.CPU, r.MemoryMB, r.MemoryMaxMB
	}
	return driver, image, cpu, mem, memMax
}

// settingValue is side old or new of f as the i-th of taskValues' settings (0 and 1 text,
// the rest numbers); nil on the side where it does not exist.
func settingValue(i int, f *api.FieldDiff, old bool) any {
	if old && f.Type == diffAdded || !old && f.Type == diffDeleted {
		return nil
	}
	v := f.New
	if old {
		v = f.Old
	}
	if i < 2 {
		return &v
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil
	}
	return &n
}

// fieldChanges are changed fields as data, objects' fields named "Object.field", deep.
func fieldChanges(prefix string, fields []*api.FieldDiff, objects []*api.ObjectDiff) []executor.FieldChange {
	out := []executor.FieldChange{}
	for _, f := range fields {
		if f == nil || f.Type == diffNone {
			continue
		}
		c := executor.FieldChange{Name: prefix + f.Name}
		if f.Type != diffAdded {
			c.Before = strPtr(f.Old)
		}
		if f.Type != diffDeleted {
			c.After = strPtr(f.New)
		}
		out = append(out, c)
	}
	for _, o := range objects {
		if o != nil && o.Type != diffNone {
			out = append(out, fieldChanges(prefix+o.Name+".", o.Fields, o.Objects)...)
		}
	}
	return out
}

// newTaskSettingsOf are a new task's settings its lines show (attrs.go), as fields and
// objects of one list: what it runs and with how much, Nomad's zero defaults left out.
func newTaskSettingsOf(t *api.TaskDiff) ([]*api.FieldDiff, []*api.ObjectDiff) {
	var fields []*api.FieldDiff
	for _, f := range t.Fields {
		if f != nil && newTaskSettings[f.Name] && !zeroValue(f.New) {
			fields = append(fields, f)
		}
	}
	var objects []*api.ObjectDiff
	for _, o := range t.Objects {
		if o != nil && newTaskSettings[o.Name] {
			if nz := nonZero(o); !emptyObject(nz) {
				objects = append(objects, nz)
			}
		}
	}
	return fields, objects
}

func taskGroup(job *api.Job, name string) *api.TaskGroup {
	if job == nil {
		return nil
	}
	for _, tg := range job.TaskGroups {
		if tg != nil && deref(tg.Name) == name {
			return tg
		}
	}
	return nil
}

func findField(fields []*api.FieldDiff, name string) *api.FieldDiff {
	for _, f := range fields {
		if f != nil && f.Name == name {
			return f
		}
	}
	return nil
}

func objectField(t *api.TaskDiff, object, field string) *api.FieldDiff {
	for _, o := range t.Objects {
		if o != nil && o.Name == object {
			return findField(o.Fields, field)
		}
	}
	return nil
}

// fieldInt is side old or new of a number field; nil when it is not one.
func fieldInt(f *api.FieldDiff, old bool) *int {
	if f == nil {
		return nil
	}
	n, _ := settingValue(2, f, old).(*int)
	return n
}

func isNil(v any) bool {
	switch p := v.(type) {
	case *string:
		return p == nil
	case *int:
		return p == nil
	}
	return v == nil
}

func asStr(v any) *string { p, _ := v.(*string); return p }

func asInt(v any) *int { p, _ := v.(*int); return p }

func strPtr(s string) *string { return &s }

func intPtr(n int) *int { return &n }
