package catalog

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// The embedded blueprints are read once: two renders share the texts of the module files,
// job template and state, and each gets its own map of module files to change as it likes.
func TestEmbeddedBlueprintFilesAreReadOnce(t *testing.T) {
	c, err := Load(Embedded())
	if err != nil {
		t.Fatal(err)
	}
	g, _ := c.Service("grafana")
	a, err := g.Render(Request{Env: "staging"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Render(Request{Env: "production"})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Terraform.Files) == 0 || a.Nomad.Template == "" || a.Salt.Text == "" {
		t.Fatalf("grafana rendered without its files: %+v", a)
	}
	for name, text := range a.Terraform.Files {
		if unsafe.StringData(text) != unsafe.StringData(b.Terraform.Files[name]) {
			t.Errorf("module file %s read again for the second render", name)
		}
	}
	if unsafe.StringData(a.Nomad.Template) != unsafe.StringData(b.Nomad.Template) || unsafe.StringData(a.Salt.Text) != unsafe.StringData(b.Salt.Text) {
		t.Error("the job template or the state read again for the second render")
	}
	a.Terraform.Files["main.tf"] = "changed"
	delete(a.Terraform.Files, "outputs.tf")
	c2, _ := g.Render(Request{Env: "staging"})
	if c2.Terraform.Files["main.tf"] == "changed" || c2.Terraform.Files["outputs.tf"] == "" {
		t.Error("a render's change to its module files reached the next render")
	}
}

// An operator's directory is read at each render, as it always was: a file changed on disk
// after loading is what the next render copies.
func TestOperatorBlueprintFilesAreReadEachRender(t *testing.T) {
	dir := t.TempDir()
	writeBlueprint(t, dir, "gitlab", map[string]string{"manifest.hcl": gitlabManifest, "gitlab.sls": "gitlab: {}\n"})
	c, err := Load(Embedded(), Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	gl, _ := c.Service("gitlab")
	if r, err := gl.Render(Request{Env: "staging"}); err != nil || r.Salt.Text != "gitlab: {}\n" {
		t.Fatalf("render = %+v, %v", r, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gitlab", "gitlab.sls"), []byte("gitlab: {changed: true}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, err := gl.Render(Request{Env: "staging"}); err != nil || r.Salt.Text != "gitlab: {changed: true}\n" {
		t.Errorf("after the edit, render = %q, %v", r.Salt.Text, err)
	}
}
