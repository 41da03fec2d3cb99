package catalog

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/terraform-config-inspect/tfconfig"
)

// inspected is one Terraform variant as terraform-config-inspect reads it.
type inspected struct {
	variant Variant
	mod     *tfconfig.Module
}

// inspection is the variants of a folder as read once.
type inspection struct {
	mods  []inspected
	diags Diagnostics
}

// inspectVariants reads every variant module that exists, once per folder. Modules that do not
// parse are left out; their problems are reported once, by Load or (for a clean folder) here.
func (f *folder) inspectVariants() ([]inspected, Diagnostics) {
	if f.inspection == nil {
		mods, diags := f.readVariants()
		f.inspection = &inspection{mods: mods, diags: diags}
	}
	return f.inspection.mods, f.inspection.diags
}

func (f *folder) readVariants() ([]inspected, Diagnostics) {
	var out []inspected
	var diags Diagnostics
	for _, v := range f.b.Variants {
		if v.Path == "" || !fs.ValidPath(v.Path) {
			continue
		}
		if info, err := fs.Stat(f.files, v.Path); err != nil || !info.IsDir() {
			continue
		}
		mod, tds := tfconfig.LoadModuleFromFilesystem(tfconfig.WrapFS(f.files), v.Path)
		if tds.HasErrors() {
			if f.clean {
				diags = append(diags, f.fromTFConfig(tds)...)
			}
			continue
		}
		out = append(out, inspected{variant: v, mod: mod})
	}
	return out, diags
}

// checkVariants checks each variant's providers, and that every variant gives the outputs of
// the first one (the default, when it can be read).
func (f *folder) checkVariants() Diagnostics {
	mods, diags := f.inspectVariants()
	for _, m := range mods {
		diags = append(diags, f.checkProviders(m)...)
	}
	diags = append(diags, f.checkHoldsData(mods)...)
	if len(mods) < 2 {
		return diags
	}
	base := mods[0]
	for _, other := range mods[1:] {
		for _, name := range sortedKeys(base.mod.Outputs) {
			if _, ok := other.mod.Outputs[name]; !ok {
				diags = append(diags, f.atPos(base.mod.Outputs[name].Pos, "output %q is missing from variant %s (%s): every variant must give the same outputs",
					name, other.variant.Name, other.variant.Path))
			}
		}
		for _, name := range sortedKeys(other.mod.Outputs) {
			if _, ok := base.mod.Outputs[name]; !ok {
				diags = append(diags, f.atPos(other.mod.Outputs[name].Pos, "output %q is not in variant %s (%s): every variant must give the same outputs",
					name, base.variant.Name, base.variant.Path))
			}
		}
	}
	return diags
}

// checkProviders wants a source and a version for every required provider, and every provider
// a resource uses declared in required_providers (Terraform would otherwise look for
// hashicorp/NAME in a registry).
func (f *folder) checkProviders(m inspected) Diagnostics {
	var diags Diagnostics
	// terraform-config-inspect adds the providers resources imply to RequiredProviders; only
	// the entries written in required_providers count as declared.
	declared := f.requiredProviderRanges(m.variant.Path)
	for _, name := range sortedKeys(declared) {
		req, rng := m.mod.RequiredProviders[name], declared[name]
		if req == nil {
			continue
		}
		if req.Source == "" {
			diags = append(diags, at(rng, "provider %q has no source: write it as { source = \"NAMESPACE/%s\", version = \"...\" }", name, name))
		}
		if len(req.VersionConstraints) == 0 || strings.TrimSpace(strings.Join(req.VersionConstraints, "")) == "" {
			diags = append(diags, at(rng, "provider %q has no version constraint: pin one, like version = \"~> 1.0\"", name))
		}
	}
	var resources []*tfconfig.Resource
	for _, r := range m.mod.ManagedResources {
		resources = append(resources, r)
	}
	for _, r := range m.mod.DataResources {
		resources = append(resources, r)
	}
	sort.Slice(resources, func(i, j int) bool {
		a, b := resources[i].Pos, resources[j].Pos
		return a.Filename < b.Filename || a.Filename == b.Filename && a.Line < b.Line
	})
	reported := map[string]bool{}
	for _, r := range resources {
		name := r.Provider.Name
		if _, ok := declared[name]; ok || name == "terraform" || reported[name] {
			continue
		}
		reported[name] = true
		kind := "resource"
		if r.Mode == tfconfig.DataResourceMode {
			kind = "data source"
		}
		diags = append(diags, f.atPos(r.Pos, "%s %q %q needs provider %q, which required_providers does not declare: add it with a source and a version",
			kind, r.Type, r.Name, name))
	}
	return diags
}

// requiredProviderRanges finds the entries of required_providers written in the module dir, and
// where.
func (f *folder) requiredProviderRanges(dir string) map[string]hcl.Range {
	out := map[string]hcl.Range{}
	entries, _ := fs.ReadDir(f.files, dir)
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".tf") {
			continue
		}
		rel := path.Join(dir, e.Name())
		src, err := fs.ReadFile(f.files, rel)
		if err != nil {
			continue
		}
		file, hds := hclsyntax.ParseConfig(src, f.display(rel), hcl.InitialPos)
		if hds.HasErrors() {
			continue
		}
		for _, tb := range file.Body.(*hclsyntax.Body).Blocks {
			if tb.Type != "terraform" {
				continue
			}
			for _, rp := range tb.Body.Blocks {
				if rp.Type != "required_providers" {
					continue
				}
				for name, a := range rp.Body.Attributes {
					out[name] = a.NameRange
				}
			}
		}
	}
	return out
}

func (f *folder) atPos(p tfconfig.SourcePos, format string, args ...any) Diagnostic {
	return Diagnostic{File: f.display(filepath.ToSlash(p.Filename)), Line: p.Line, Column: 1, Message: fmt.Sprintf(format, args...)}
}

// fromTFConfig converts terraform-config-inspect's errors.
func (f *folder) fromTFConfig(tds tfconfig.Diagnostics) Diagnostics {
	var out Diagnostics
	for _, td := range tds {
		if td.Severity != tfconfig.DiagError {
			continue
		}
		msg := td.Summary
		if td.Detail != "" {
			msg += ": " + td.Detail
		}
		if td.Pos == nil {
			out = append(out, Diagnostic{File: f.display("."), Message: msg})
			continue
		}
		out = append(out, f.atPos(*td.Pos, "%s", msg))
	}
	return out
}

// checkFormat runs `terraform fmt -check` over every .tf file of the folders, once: it copies
// them into a temporary directory (the shipped ones are not on disk) and maps the files terraform
// lists back to their names. A file that does not parse is reported with its syntax errors
// instead, since terraform fmt stops at the first one.
func checkFormat(ctx context.Context, folders []*folder, bin string) Diagnostics {
	tmp, err := os.MkdirTemp("", "eos-catalog-fmt-")
	if err != nil {
		return Diagnostics{{Message: fmt.Sprintf("checking formatting: %v", err)}}
	}
	defer os.RemoveAll(tmp)
	var diags Diagnostics
	names := map[string]string{} // slash path under tmp → display name
	for i, f := range folders {
		for _, rel := range f.walk(".tf") {
			src, err := fs.ReadFile(f.files, rel)
			if err != nil {
				diags = append(diags, Diagnostic{File: f.display(rel), Message: err.Error()})
				continue
			}
			if _, hds := hclsyntax.ParseConfig(src, f.display(rel), hcl.InitialPos); hds.HasErrors() {
				diags = append(diags, fromHCL(hds)...)
				continue
			}
			key := path.Join(strconv.Itoa(i), rel)
			p := filepath.Join(tmp, filepath.FromSlash(key))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return append(diags, Diagnostic{Message: fmt.Sprintf("checking formatting: %v", err)})
			}
			if err := os.WriteFile(p, src, 0o644); err != nil {
				return append(diags, Diagnostic{Message: fmt.Sprintf("checking formatting: %v", err)})
			}
			names[key] = f.display(rel)
		}
	}
	if len(names) == 0 {
		return diags
	}
	if bin == "" {
		if bin, err = exec.LookPath("terraform"); err != nil {
			return append(diags, Diagnostic{Message: fmt.Sprintf("checking formatting needs terraform: %v; install it or name the binary", err)})
		}
	}
	listed, err := terraformFmtCheck(ctx, bin, tmp)
	if err != nil {
		return append(diags, Diagnostic{Message: err.Error()})
	}
	for _, key := range listed {
		name, ok := names[key]
		if !ok {
			name = key
		}
		diags = append(diags, Diagnostic{File: name, Line: 1, Column: 1, Message: "not formatted (terraform fmt)"})
	}
	return diags
}

// terraformFmtCheck runs `terraform fmt -check -list=true -recursive` in dir and returns the
// files it lists, slash-separated and relative to dir.
func terraformFmtCheck(ctx context.Context, bin, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, bin, "fmt", "-check", "-list=true", "-recursive", "-no-color", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE="+os.DevNull)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var listed []string
	for sc := bufio.NewScanner(&stdout); sc.Scan(); {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			listed = append(listed, path.Clean(filepath.ToSlash(line)))
		}
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil, nil
	case errors.As(err, &exit) && exit.ExitCode() == 3 && len(listed) > 0:
		return listed, nil
	}
	return nil, fmt.Errorf("running terraform fmt -check: %v\n%s", err, strings.TrimSpace(stderr.String()))
}
