package terraform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	tfjson "github.com/hashicorp/terraform-json"
)

// objectsFile, in a unit's working directory, records the names of the objects the unit's
// state holds after its latest successful apply, for a remote backend (see owners.go).
const objectsFile = "eos-objects.json"

// recordedObject is one entry of objectsFile.
type recordedObject struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// plannedNames are the names of the managed objects a plan leaves in the state: its planned
// values, every module included. A destroy leaves none.
func plannedNames(p *tfjson.Plan) []string {
	if p == nil || p.PlannedValues == nil || p.PlannedValues.RootModule == nil {
		return []string{}
	}
	var out []string
	var walk func(m *tfjson.StateModule)
	walk = func(m *tfjson.StateModule) {
		for _, r := range m.Resources {
			if r.Mode != tfjson.ManagedResourceMode {
				continue
			}
			if n, ok := nameOf(r.Type, r.AttributeValues); ok {
				raw, _ := json.Marshal(recordedObject{Type: n.Type, Name: n.Name})
				out = append(out, string(raw))
			}
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(p.PlannedValues.RootModule)
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// recordObjects writes what a unit's state holds after a successful apply (objects, from its
// plan) into the unit's directory; an empty list (a destroy) removes the record. A record
// that cannot be written is logged: the apply stands, and a clash with it is found by the
// next apply instead.
func (l *Layer) recordObjects(dir string, objects []string) {
	path := filepath.Join(dir, objectsFile)
	if len(objects) == 0 {
		if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
			l.log.Warn("removing the record of a unit's objects", "dir", dir, "error", err)
		}
		return
	}
	raw, _ := json.Marshal(objects)
	tmp := path + ".tmp"
	err := os.WriteFile(tmp, raw, 0o600)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		l.log.Warn("recording a unit's objects", "dir", dir, "error", err)
	}
}

// recordedNames reads an objectsFile.
func recordedNames(file string) []objectName {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var entries []string
	if json.Unmarshal(raw, &entries) != nil {
		return nil
	}
	var out []objectName
	for _, e := range entries {
		var o recordedObject
		if json.Unmarshal([]byte(e), &o) == nil && o.Name != "" {
			out = append(out, objectName{Type: o.Type, Name: o.Name})
		}
	}
	return out
}
