package terraform

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// A cloud object has one owner. Two units whose modules give an object the same name (a
// blueprint that forgets the environment, deployed in a second one) would both create it:
// the second apply fails half way ("eoslab firewall "proxy-grafana" already exists … import
// the object"), after someone approved it. So when a plan creates a resource, its name is
// compared with the names in every other unit's state, and a clash is one of the plan's
// Failures, naming the owner: "firewall proxy-grafana already exists (grafana in local)". A
// plan with a failure cannot be approved.
//
// A resource's name is its name attribute, qualified by its zone (zone or zone_id) when it has
// one: a DNS record is its name in its zone. Resources without a name attribute
// (attachments) are not compared. With the local backend the other units' states are read from
// their working directories. With a remote one (pg, consul, s3) the states live elsewhere, so
// each unit's successful apply records the names of what its state then holds in its working
// directory (objects.go), and those records are read instead: they cover every unit this Eos
// (or the replica whose disk it is) applied since, and a clash with anything else is still
// only found by the apply.

// objectName is what names a resource outside Terraform: its type and name.
type objectName struct {
	Type string `json:"type"` // "eoslab_firewall"
	Name string `json:"name"` // "proxy-grafana", "grafana.local.test"
}

// String is the name as people read it: "firewall proxy-grafana", "dns record
// grafana.local.test".
func (n objectName) String() string {
	kind := n.Type
	if _, rest, ok := strings.Cut(kind, "_"); ok {
		kind = rest // the provider's prefix
	}
	return strings.ReplaceAll(kind, "_", " ") + " " + n.Name
}

// nameOf is the name a resource of type typ with attrs gives to its object; false when it
// has none known.
func nameOf(typ string, attrs map[string]any) (objectName, bool) {
	name, _ := attrs["name"].(string)
	if name == "" {
		return objectName{}, false
	}
	for _, q := range []string{"zone", "zone_id"} {
		if z, ok := attrs[q].(string); ok && z != "" {
			if name == "@" {
				name = z
			} else {
				name += "." + z
			}
		}
	}
	return objectName{Type: typ, Name: name}, true
}

// clashes are the objects rcs creates that another unit's state already holds, one sentence
// each, sorted. Only the local backend keeps the other states where this can read them.
func (l *Layer) clashes(env, service string, rcs []*tfjson.ResourceChange) []string {
	var created []objectName
	for _, rc := range rcs {
		if rc.Mode != tfjson.ManagedResourceMode || rc.Change == nil || !rc.Change.Actions.Create() && !rc.Change.Actions.Replace() {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		if n, ok := nameOf(rc.Type, after); ok {
			created = append(created, n)
		}
	}
	if len(created) == 0 {
		return nil
	}
	owners := l.owners(env, service)
	var out []string
	for _, n := range created {
		if owner, ok := owners[n]; ok {
			out = append(out, fmt.Sprintf("%s already exists (%s)", n, owner))
		}
	}
	sort.Strings(out)
	return out
}

// owners maps the name of every object in the other units' states to its owner ("grafana in
// local"). A state that cannot be read (absent, being written) is skipped: the apply still
// refuses what it would duplicate.
func (l *Layer) owners(env, service string) map[objectName]string {
	out := map[objectName]string{}
	file, read := "terraform.tfstate", stateNames
	if l.backend.remote() {
		file, read = objectsFile, recordedNames
	}
	files, _ := filepath.Glob(filepath.Join(l.workDir, "*", "*", file))
	for _, f := range files {
		unitDir := filepath.Dir(f)
		s, e := filepath.Base(unitDir), filepath.Base(filepath.Dir(unitDir))
		if strings.HasPrefix(e, ".") || s == service && e == env {
			continue
		}
		for _, n := range read(f) {
			out[n] = s + " in " + e
		}
	}
	return out
}

// stateNames reads the names of the managed resources in a local state file (format 4).
func stateNames(file string) []objectName {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var st struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if json.Unmarshal(data, &st) != nil {
		return nil
	}
	var out []objectName
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, in := range r.Instances {
			if n, ok := nameOf(r.Type, in.Attributes); ok {
				out = append(out, n)
			}
		}
	}
	return out
}
