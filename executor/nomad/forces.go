package nomad

import (
	"strings"

	"github.com/hashicorp/nomad/api"
)

// maxForces is how many forcing paths a destructive update names before "…".
const maxForces = 6

// forcingPaths names what a destructive update of a task group changes, one level deeper than
// its detail: "task main Config.image", "task main Env.TZ", "Volume.data.Source". Nomad's plan
// does not say which of them forces the replacement; any change to a task's driver, config,
// environment, artifacts or templates does, so these are the candidates a reviewer checks.
func forcingPaths(g *api.TaskGroupDiff) string {
	var out []string
	for _, f := range g.Fields {
		if f != nil && f.Type != diffNone && f.Name != "Count" {
			out = append(out, f.Name)
		}
	}
	out = append(out, objectPaths("", g.Objects)...)
	for _, t := range g.Tasks {
		if t == nil || t.Type != diffEdited {
			continue
		}
		prefix := "task " + t.Name + " "
		for _, f := range t.Fields {
			if f != nil && f.Type != diffNone {
				out = append(out, prefix+f.Name)
			}
		}
		out = append(out, objectPaths(prefix, t.Objects)...)
	}
	if len(out) > maxForces {
		out = append(out[:maxForces:maxForces], "…")
	}
	return strings.Join(out, ", ")
}

// objectPaths lists an object's changed fields as "prefixObject.field"; an object whose change
// is in nested objects only, or that is added or removed whole, is named alone.
func objectPaths(prefix string, objects []*api.ObjectDiff) []string {
	var out []string
	for _, o := range objects {
		if o == nil || o.Type == diffNone {
			continue
		}
		var fields []string
		for _, f := range o.Fields {
			if f != nil && f.Type != diffNone {
				fields = append(fields, prefix+o.Name+"."+f.Name)
			}
		}
		if len(fields) == 0 || o.Type != diffEdited {
			fields = []string{prefix + o.Name}
		}
		out = append(out, fields...)
	}
	return out
}
