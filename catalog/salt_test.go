package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"
)

// renderSLS renders a Salt state with pillar through Jinja and parses the YAML, using Python's
// jinja2 and PyYAML (testdata/render_sls.py). Without them the test skips, except in CI.
func renderSLS(t *testing.T, template string, pillar map[string]any) map[string]map[string][]any {
	t.Helper()
	return renderSLSOn(t, template, pillar, nil)
}

// renderSLSOn is renderSLS on a minion whose configuration holds opts (for config.get).
func renderSLSOn(t *testing.T, template string, pillar, opts map[string]any) map[string]map[string][]any {
	t.Helper()
	if err := exec.Command("python3", "-c", "import jinja2, yaml").Run(); err != nil {
		missing(t, fmt.Sprintf("python3 with jinja2 and yaml is needed to render Salt states: %v", err))
	}
	in, err := json.Marshal(map[string]any{"template": template, "pillar": pillar, "opts": opts})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), "python3", "testdata/render_sls.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rendering the state: %v\n%s", err, stderr.Bytes())
	}
	var states map[string]map[string][]any
	if err := json.Unmarshal(out, &states); err != nil {
		t.Fatalf("rendered state is not a map of state IDs to functions: %v\n%s", err, out)
	}
	return states
}

// stateArg finds "- key: value" in a state function's argument list.
func stateArg(args []any, key string) any {
	for _, a := range args {
		if m, ok := a.(map[string]any); ok {
			if v, ok := m[key]; ok {
				return v
			}
		}
	}
	return nil
}

func TestShippedSaltStatesRender(t *testing.T) {
	c := loadEmbedded(t)
	for _, b := range c.Services() {
		t.Run(b.Name, func(t *testing.T) {
			r, err := b.Render(Request{Env: "test", Variant: "production"})
			if err != nil {
				t.Fatal(err)
			}
			states := renderSLS(t, r.Salt.Text, r.Salt.Pillar)
			lv := states[b.Name+"-data-volume"]["lvm.lv_present"]
			if stateArg(lv, "name") != "data-"+b.Name+"-test" || stateArg(lv, "size") != r.Salt.Pillar["lv_size"] {
				t.Errorf("lvm.lv_present = %v, want data-%s-test of size %v", lv, b.Name, r.Salt.Pillar["lv_size"])
			}
			if fs := states[b.Name+"-data-filesystem"]["blockdev.formatted"]; stateArg(fs, "fs_type") != "xfs" {
				t.Errorf("blockdev.formatted = %v, want xfs", fs)
			}
			if m := states[b.Name+"-data-mount"]["mount.mounted"]; stateArg(m, "name") != "/srv/"+b.Name+"-test" {
				t.Errorf("mount.mounted = %v, want /srv/%s-test", m, b.Name)
			}
		})
	}
}

// TestSaltValuesStayData feeds pillar values full of YAML syntax: they must come out as the same
// strings, not as new keys or states.
func TestSaltValuesStayData(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	r, err := nc.Render(Request{Env: "test", Variant: "production"})
	if err != nil {
		t.Fatal(err)
	}
	hostile := "x\n- evil: true\n\"quoted\": {a: b} # comment"
	pillar := map[string]any{"lv_name": hostile, "lv_size": "100G", "fs_type": "xfs", "mount_point": "/srv/a: b"}
	states := renderSLS(t, r.Salt.Text, pillar)
	if got := stateArg(states["nextcloud-data-volume"]["lvm.lv_present"], "name"); got != hostile {
		t.Errorf("lv name came out as %#v", got)
	}
	if got := stateArg(states["nextcloud-data-mount"]["mount.mounted"], "name"); got != "/srv/a: b" {
		t.Errorf("mount point came out as %#v", got)
	}
	if len(states) != 5 {
		t.Errorf("rendered %d states, want the 5 the file declares", len(states))
	}
}

func TestResizeStateRenders(t *testing.T) {
	op, _ := loadEmbedded(t).Operation("resize", "lvm")
	size, _ := ParseSize("+50G")
	r, err := op.Render(Request{Args: []Value{StringValue(String, "data-nextcloud"), size}, Variant: "production"})
	if err != nil {
		t.Fatal(err)
	}
	states := renderSLS(t, r.Salt.Text, r.Salt.Pillar)
	got := stateArg(states["resize-lvm-extend"]["cmd.run"], "name")
	if got != "lvextend --resizefs -L +50G /dev/vg0/data-nextcloud" {
		t.Errorf("command = %#v", got)
	}
	r.Salt.Pillar["lv_name"] = "x; rm -rf /"
	states = renderSLS(t, r.Salt.Text, r.Salt.Pillar)
	if got := stateArg(states["resize-lvm-extend"]["cmd.run"], "name"); got != "lvextend --resizefs -L +50G '/dev/vg0/x; rm -rf /'" {
		t.Errorf("a hostile name was not quoted for the shell: %#v", got)
	}
}
