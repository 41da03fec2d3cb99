package catalog

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// CheckOptions configures Check.
type CheckOptions struct {
	// Terraform is the terraform binary that checks formatting (terraform fmt); "" looks it up
	// on PATH.
	Terraform string
}

// Check validates blueprint folders the way a compiler would (`eos catalog check`) and returns
// every problem found, sorted by file and position; nil means none. Each of dirs is a blueprint
// folder (it holds a manifest.hcl) or a folder of blueprint folders; without dirs, Check checks
// the shipped blueprints. Dependencies may name the shipped services.
//
// Beyond everything Load reports, Check renders each blueprint with example values (its
// defaults, then every flag set) and checks that the values fit the types the Terraform and
// Nomad variables declare; inspects every Terraform variant (terraform-config-inspect): the
// same outputs in every variant, and each provider a resource uses declared in
// required_providers with a source and a version; checks that every var.NAME a Nomad job uses
// is declared; parses every Salt state (*.sls) as YAML after replacing its Jinja (see
// checkSalt for what that cannot see); wants a pattern (or an enum) on every string, path and
// list argument and flag that can be typed (checkBounded); and runs `terraform fmt -check` on
// every .tf file.
func Check(ctx context.Context, dirs []string, opts CheckOptions) Diagnostics {
	l := newLoader()
	emb := Embedded()
	shipped, err := emb.folders()
	if err != nil {
		return Diagnostics{{File: emb.display("."), Message: fmt.Sprintf("reading the shipped blueprints: %v", err)}}
	}
	var targets []*folder
	for _, dir := range shipped {
		f := newFolder(emb, dir)
		f.b = l.folder(emb, dir)
		if len(dirs) == 0 {
			targets = append(targets, f)
		}
	}
	var diags Diagnostics
	for _, d := range dirs {
		found, err := blueprintFolders(d)
		if err != nil {
			diags = append(diags, Diagnostic{File: d, Message: err.Error()})
			continue
		}
		for _, f := range found {
			f.b = l.folder(f.src, f.dir)
			targets = append(targets, f)
		}
	}
	c := l.build()
	diags = append(diags, l.diags...)
	for _, f := range targets {
		f.clean = !mentions(l.diags, f.display("."))
		diags = append(diags, f.check(c)...)
	}
	diags = append(diags, checkFormat(ctx, targets, opts.Terraform)...)
	return unique(diags.sorted())
}

// folder is one blueprint folder under check.
type folder struct {
	src   Source
	dir   string // relative to src.FS
	files fs.FS  // the folder itself
	b     *Blueprint
	// clean is set when Load found no problem in the folder: only then is the blueprint
	// rendered, since a broken manifest would report its problems a second time.
	clean bool
	// inspection caches the Terraform variants as terraform-config-inspect reads them.
	inspection *inspection
}

func newFolder(src Source, dir string) *folder {
	files, err := fs.Sub(src.FS, dir)
	if err != nil {
		files = src.FS // fs.Sub fails only on invalid paths; folders() yields valid ones
	}
	return &folder{src: src, dir: dir, files: files}
}

// display is the name of the folder's file rel in messages.
func (f *folder) display(rel string) string { return f.src.display(path.Join(f.dir, rel)) }

// blueprintFolders opens d: a blueprint folder, or a folder of them.
func blueprintFolders(d string) ([]*folder, error) {
	info, err := os.Stat(d)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("not a directory")
	}
	if _, err := os.Stat(filepath.Join(d, manifestName)); err == nil {
		return []*folder{newFolder(Source{Name: d, FS: os.DirFS(d)}, ".")}, nil
	}
	src := Dir(d)
	dirs, err := src.folders()
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("neither a blueprint folder (no %s) nor a folder of blueprint folders", manifestName)
	}
	out := make([]*folder, len(dirs))
	for i, dir := range dirs {
		out[i] = newFolder(src, dir)
	}
	return out, nil
}

// check runs the checks of one folder that Load does not.
func (f *folder) check(c *Catalog) Diagnostics {
	diags := f.checkSaltFiles()
	if f.b == nil {
		return diags
	}
	diags = append(diags, f.checkVariants()...)
	diags = append(diags, f.checkNomadReferences()...)
	diags = append(diags, f.checkNomadHoldsData()...) // holdsdata_nomad.go
	diags = append(diags, f.checkBounded()...)        // check_bounded.go
	if f.clean {
		diags = append(diags, f.checkExamples(c)...)
		diags = append(diags, f.checkEnvNames(c)...) // check_envnames.go
	}
	return diags
}

// walk lists the folder's regular files whose names end in suffix, skipping hidden and
// .terraform directories.
func (f *folder) walk(suffix string) []string {
	var out []string
	// Errors only hide files from the checks; the files Load needs are reported by Load.
	_ = fs.WalkDir(f.files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != "." && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), suffix) {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// mentions reports whether any diagnostic is about a file in the folder named prefix.
func mentions(diags Diagnostics, prefix string) bool {
	for _, d := range diags {
		if d.File == prefix || strings.HasPrefix(d.File, prefix+"/") || strings.HasPrefix(d.File, prefix+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// unique drops repeated diagnostics, keeping the order.
func unique(ds Diagnostics) Diagnostics {
	var out Diagnostics
	seen := map[Diagnostic]bool{}
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}
