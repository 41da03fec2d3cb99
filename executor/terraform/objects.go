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

// plannedNames are the names of the managed objects a plan leaves in the state: its planned
// values, every module included, sorted. A destroy leaves none.
func plannedNames(p *tfjson.Plan) []objectName {
	out := []objectName{}
	if p == nil || p.PlannedValues == nil || p.PlannedValues.RootModule == nil {
		return out
	}
	var walk func(m *tfjson.StateModule)
	walk = func(m *tfjson.StateModule) {
		for _, r := range m.Resources {
			if r.Mode != tfjson.ManagedResourceMode {
				continue
			}
			if n, ok := nameOf(r.Type, r.AttributeValues); ok {
				out = append(out, n)
			}
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(p.PlannedValues.RootModule)
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// recordObjects writes what a unit's state holds after a successful apply (objects, from its
// plan) into the unit's directory; an empty list (a destroy) removes the record. A record
// that cannot be written is logged: the apply stands, and a clash with it is found by the
// next apply instead.
func (l *Layer) recordObjects(dir string, objects []objectName) {
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
	var out []objectName
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}
