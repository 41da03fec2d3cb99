package catalog

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestShippedLocalSaltStatesOnlyWriteUnderTheDataDir: the default (local) Salt variant of every
// shipped blueprint, and of the scaffold `eos catalog new` writes, manages files under the minion's eos_data_dir and nothing else, and a minion
// without that setting gets one failing state instead of any change.
func TestShippedLocalSaltStatesOnlyWriteUnderTheDataDir(t *testing.T) {
	c := loadEmbedded(t)
	size, _ := ParseSize("+50G")
	rendered := map[string]*Rendered{}
	for _, b := range c.Services() {
		r, err := b.Render(Request{Env: "test"})
		if err != nil {
			t.Fatal(err)
		}
		rendered[b.Name] = r
	}
	op, _ := c.Operation("resize", "lvm")
	r, err := op.Render(Request{Args: []Value{StringValue(String, "data-nextcloud"), size}})
	if err != nil {
		t.Fatal(err)
	}
	rendered["resize-lvm"] = r
	// `eos catalog new`'s scaffold too: a blueprint made with it must not install packages as
	// root when its local plan is approved.
	path, err := Scaffold(t.TempDir(), "team-wiki")
	if err != nil {
		t.Fatal(err)
	}
	scaffolded, err := LoadDir(path)
	if err != nil {
		t.Fatal(err)
	}
	if rendered["team-wiki"], err = service(t, scaffolded, "team-wiki").Render(Request{Env: "test"}); err != nil {
		t.Fatal(err)
	}
	for name, r := range rendered {
		t.Run(name, func(t *testing.T) {
			if r.Salt.Variant != DefaultVariant || !strings.HasSuffix(r.Salt.State, "/local.sls") {
				t.Fatalf("rendered Salt variant %q (%s), want the local state by default", r.Salt.Variant, r.Salt.State)
			}
			if r.Salt.Pillar["domain"] == "x\n- evil: true" {
				t.Fatal("unexpected pillar")
			}
			if _, ok := r.Salt.Pillar["domain"]; ok {
				r.Salt.Pillar["domain"] = "x\n- evil: true # {a: b}" // stays data
			}
			states := renderSLSOn(t, r.Salt.Text, r.Salt.Pillar, map[string]any{"eos_data_dir": "/data/eos"})
			var names []string
			for id, fns := range states {
				for fn, args := range fns {
					if fn != "file.managed" {
						t.Errorf("state %s uses %s; the local variant only manages files", id, fn)
					}
					path, _ := stateArg(args, "name").(string)
					if !strings.HasPrefix(path, "/data/eos/") || strings.Contains(path, "..") {
						t.Errorf("state %s manages %q, outside the data dir", id, path)
					}
					names = append(names, path)
					if c, _ := stateArg(args, "contents").(string); strings.Contains(c, "evil") && !strings.Contains(c, "domain=x\n- evil: true # {a: b}") {
						t.Errorf("the domain did not stay data: %q", c)
					}
				}
			}
			if len(names) == 0 {
				t.Fatal("the local variant manages nothing")
			}
			sort.Strings(names)
			if name != "resize-lvm" && !reflect.DeepEqual(names[0], "/data/eos/srv/"+name+"-test/.eos-volume") {
				t.Errorf("files %v, want the volume marker under /data/eos/srv/%s-test (the environment is in the path)", names, name)
			}

			states = renderSLSOn(t, r.Salt.Text, r.Salt.Pillar, nil)
			if len(states) != 1 {
				t.Fatalf("without eos_data_dir: %d states, want one that fails", len(states))
			}
			for _, fns := range states {
				if _, ok := fns["test.fail_without_changes"]; !ok {
					t.Errorf("without eos_data_dir: %v, want test.fail_without_changes", fns)
				}
			}
		})
	}
}
