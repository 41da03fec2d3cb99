package nomad

import (
	"fmt"
	"strings"

	"github.com/hashicorp/nomad/api"
)

// A change's Detail names at most maxDetailNames settings, without their values; its Attrs
// (the full plan) list every changed field, deep and whole, and every field of a new group
// or task: `task web Config.image
// "nginx:1.25" → "nginx:1.27"`. A job spec holds no secrets (they reach a task through a Vault
// template at run time), so values are shown as they are.

// changeAttrs is a change's Attrs: what it does to allocations (head), then every changed
// field, one a line. Empty when the detail says it all (nothing changed but the count).
func changeAttrs(head string, fields []*api.FieldDiff, objects []*api.ObjectDiff, tasks []*api.TaskDiff) string {
	lines := fieldLines("", fields, objects)
	for _, t := range tasks {
		switch {
		case t == nil || t.Type == diffNone:
		case t.Type == diffAdded:
			// A new task's settings are all new: listed, so the full plan (and a policy
			// reading it) sees what a create will run, its image and resources included.
			lines = append(lines, "new task "+t.Name)
			lines = append(lines, newTaskLines(t)...)
		case t.Type == diffDeleted:
			lines = append(lines, "removed task "+t.Name)
		default:
			lines = append(lines, fieldLines("task "+t.Name+" ", t.Fields, t.Objects)...)
		}
	}
	onlyCount := true
	for _, f := range fields {
		if f != nil && f.Type != diffNone && f.Name != "Count" {
			onlyCount = false
		}
	}
	if len(lines) == 0 || onlyCount && len(lines) == 1 {
		return ""
	}
	if head != "" {
		lines = append([]string{head}, lines...)
	}
	return strings.Join(lines, "\n")
}

// newTaskSettings are the settings of a new task its lines show: what it runs and with how
// much. Nomad's defaults (restart timings, log rotation, zero resources) are left out: a
// reader looks for the image, the command and the memory, and so does a policy.
var newTaskSettings = map[string]bool{"Driver": true, "User": true, "Config": true, "Resources": true, "Env": true}

// newTaskLines are a new task's settings as lines ("task web Config.image (none) →
// "nginx:1.27""), those newTaskSettings names with a value that is not zero.
func newTaskLines(t *api.TaskDiff) []string {
	fields, objects := newTaskSettingsOf(t) // groupdata.go
	return fieldLines("task "+t.Name+" ", fields, objects)
}

// nonZero is o without its fields whose new value is zero, deep.
func nonZero(o *api.ObjectDiff) *api.ObjectDiff {
	out := &api.ObjectDiff{Type: o.Type, Name: o.Name}
	for _, f := range o.Fields {
		if f != nil && !zeroValue(f.New) {
			out.Fields = append(out.Fields, f)
		}
	}
	for _, inner := range o.Objects {
		if inner != nil {
			if nz := nonZero(inner); !emptyObject(nz) {
				out.Objects = append(out.Objects, nz)
			}
		}
	}
	return out
}

// emptyObject reports whether o has no field at any depth.
func emptyObject(o *api.ObjectDiff) bool {
	if len(o.Fields) > 0 {
		return false
	}
	for _, inner := range o.Objects {
		if !emptyObject(inner) {
			return false
		}
	}
	return true
}

func zeroValue(v string) bool { return v == "" || v == "0" || v == "false" }

// fieldLines lists changed fields as "prefixName old → new", and objects' fields under
// "prefixObject.": an object added or removed without fields is named alone.
func fieldLines(prefix string, fields []*api.FieldDiff, objects []*api.ObjectDiff) []string {
	var out []string
	for _, f := range fields {
		if f == nil || f.Type == diffNone {
			continue
		}
		name := f.Name
		if prefix == "" && name == "Count" {
			name = "count"
		}
		out = append(out, fmt.Sprintf("%s%s %s → %s", prefix, name, fieldValue(f.Old, f.Type == diffAdded), fieldValue(f.New, f.Type == diffDeleted)))
	}
	for _, o := range objects {
		if o == nil || o.Type == diffNone {
			continue
		}
		inner := fieldLines(prefix+o.Name+".", o.Fields, o.Objects)
		if len(inner) == 0 {
			inner = []string{fmt.Sprintf("%s%s %s", prefix, o.Name, strings.ToLower(o.Type))}
		}
		out = append(out, inner...)
	}
	return out
}

// fieldValue is a field's value quoted, or "(none)" on the side where it does not exist.
func fieldValue(v string, absent bool) string {
	if absent {
		return "(none)"
	}
	return fmt.Sprintf("%q", v)
}
