package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// expressions lists every expression of b that is evaluated at render time.
func (b *Blueprint) expressions() []hcl.Expression {
	var out []hcl.Expression
	for _, r := range b.Requires {
		out = append(out, r.When, r.Flags)
	}
	for _, p := range []*Part{b.Salt, b.Terraform, b.Nomad} {
		if p != nil {
			out = append(out, p.Data)
		}
	}
	return out
}

// checkExpressions reports names and functions that an expression uses but rendering cannot
// supply: flag.X for a flag b does not declare, arg.X likewise, secret flags, unknown roots and
// unknown functions.
func (d *decoder) checkExpressions(b *Blueprint) {
	for _, expr := range b.expressions() {
		if expr == nil {
			continue
		}
		for _, tr := range expr.Variables() {
			d.checkTraversal(b, tr)
		}
		if node, ok := expr.(hclsyntax.Node); ok {
			hclsyntax.VisitAll(node, func(n hclsyntax.Node) hcl.Diagnostics {
				if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
					d.checkCall(b, call)
				}
				return nil
			})
		}
	}
}

func (d *decoder) checkTraversal(b *Blueprint, tr hcl.Traversal) {
	rng := tr.SourceRange()
	switch root := tr.RootName(); root {
	case "flag", "arg":
		name, ok := traversalName(tr)
		if !ok {
			d.errorf(rng, "refer to one %s by name, like %s.NAME", root, root)
			return
		}
		if root == "arg" {
			if _, found := b.arg(name); !found {
				d.errorf(rng, "unknown argument %q in arg.%s: %s has %s", name, name, b.label(), nameList("arguments", argNames(b)))
			}
			return
		}
		f, found := b.Flag(name)
		switch {
		case !found:
			d.errorf(rng, "unknown flag %q in flag.%s: %s has %s", name, name, b.label(), nameList("flags", b.FlagNames()))
		case f.Secret:
			d.errorf(rng, "flag %q is secret: its value never reaches templates; declare a secret block and read it from Vault", name)
		}
	case "env":
		if len(tr) > 1 {
			d.errorf(rng, "env is the environment's name, a string with no attributes")
		}
	case "service":
		if name, ok := traversalName(tr); !ok || name != "name" || len(tr) > 2 {
			d.errorf(rng, "service has one attribute: service.name")
		}
	default:
		d.errorf(rng, "unknown name %q: expressions may use flag.NAME, arg.NAME, env and service.name", root)
	}
}

// traversalName is NAME in root.NAME or root["NAME"].
func traversalName(tr hcl.Traversal) (string, bool) {
	if len(tr) < 2 {
		return "", false
	}
	switch step := tr[1].(type) {
	case hcl.TraverseAttr:
		return step.Name, true
	case hcl.TraverseIndex:
		if step.Key.Type() == cty.String && step.Key.IsKnown() && !step.Key.IsNull() {
			return step.Key.AsString(), true
		}
	}
	return "", false
}

// checkCall reports unknown functions, and gib() or seconds() applied to a flag or argument of
// the wrong type.
func (d *decoder) checkCall(b *Blueprint, call *hclsyntax.FunctionCallExpr) {
	if _, ok := functions[call.Name]; !ok {
		d.errorf(call.NameRange, "unknown function %s(); available: %s", call.Name, strings.Join(functionNames(), ", "))
		return
	}
	want := map[string]Type{"gib": Size, "seconds": Duration}[call.Name]
	if want == "" || len(call.Args) != 1 {
		return
	}
	st, ok := call.Args[0].(*hclsyntax.ScopeTraversalExpr)
	if !ok {
		return
	}
	name, ok := traversalName(st.Traversal)
	if !ok {
		return
	}
	var got Type
	switch st.Traversal.RootName() {
	case "flag":
		if f, found := b.Flag(name); found {
			got = f.Type
		}
	case "arg":
		if a, found := b.arg(name); found {
			got = a.Type
		}
	}
	if got != "" && got != want {
		d.errorf(st.SrcRange, "%s() takes a %s, but %s is a %s", call.Name, want, st.Traversal.RootName()+"."+name, got)
	}
}

// checkParts reports layer files that are missing, and template variables the manifest sets but
// the template does not declare (or declares without a default and the manifest leaves unset).
// Every Salt, Terraform and Nomad variant is checked against its part's one data attribute.
func (d *decoder) checkParts(b *Blueprint) {
	if p := b.Salt; p != nil {
		for _, v := range b.SaltVariants {
			state := &Part{Path: v.Path, Data: p.Data, Range: v.Range}
			if d.validPath(state, "salt state") {
				d.regularFile(state, "salt state")
			}
		}
	}
	if p := b.Terraform; p != nil {
		for _, v := range b.Variants {
			module := &Part{Path: v.Path, Data: p.Data, Range: v.Range}
			if d.validPath(module, "terraform module") {
				d.checkModule(module)
			}
		}
	}
	if p := b.Nomad; p != nil {
		for _, v := range b.NomadVariants {
			job := &Part{Path: v.Path, Data: p.Data, Range: v.Range}
			if !d.validPath(job, "nomad job") || !d.regularFile(job, "nomad job") {
				continue
			}
			if vars, ok := d.declaredVariables(job, []string{job.Path}, "job"); ok {
				d.checkVariables(job, "nomad", vars)
			}
		}
	}
}

func (d *decoder) validPath(p *Part, what string) bool {
	if p.Path == "" {
		return false // missing or not a string: reported already
	}
	if !fs.ValidPath(p.Path) {
		d.errorf(p.Range, "%s %q must be a path inside the blueprint folder, like salt/app.sls (no leading /, no ..)", what, p.Path)
		return false
	}
	return true
}

func (d *decoder) regularFile(p *Part, what string) bool {
	info, err := fs.Stat(d.files, p.Path)
	if err != nil {
		d.errorf(p.Range, "%s %q does not exist in the blueprint folder", what, p.Path)
		return false
	}
	if !info.Mode().IsRegular() {
		d.errorf(p.Range, "%s %q is not a regular file", what, p.Path)
		return false
	}
	return true
}

func (d *decoder) checkModule(p *Part) {
	entries, err := fs.ReadDir(d.files, p.Path)
	if err != nil {
		d.errorf(p.Range, "terraform module %q is not a directory in the blueprint folder", p.Path)
		return
	}
	var tf []string
	jsonConfig := false
	for _, e := range entries {
		switch name := e.Name(); {
		case !e.Type().IsRegular():
		case strings.HasSuffix(name, ".tf"):
			tf = append(tf, path.Join(p.Path, name))
		case strings.HasSuffix(name, ".tf.json"):
			jsonConfig = true
		}
	}
	if len(tf) == 0 && !jsonConfig {
		d.errorf(p.Range, "terraform module %q has no .tf file", p.Path)
		return
	}
	if jsonConfig {
		return // variables declared in JSON are not cross-checked
	}
	if vars, ok := d.declaredVariables(p, tf, ""); ok {
		d.checkVariables(p, "terraform", vars)
	}
}

// declaredVariables parses files and returns their top-level variable blocks, name → whether
// the variable has a default. need names a top-level block the files must hold ("job").
func (d *decoder) declaredVariables(p *Part, files []string, need string) (map[string]bool, bool) {
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "variable", LabelNames: []string{"name"}}}}
	if need != "" {
		schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: need, LabelNames: []string{"name"}})
	}
	vars := map[string]bool{}
	found := false
	for _, name := range files {
		src, err := fs.ReadFile(d.files, name)
		if err != nil {
			d.errorf(p.Range, "reading %s: %v", name, err)
			return nil, false
		}
		file, hds := hclsyntax.ParseConfig(src, d.src.display(path.Join(d.dir, name)), hcl.InitialPos)
		if !d.addHCL(hds) {
			return nil, false
		}
		content, _, hds := file.Body.PartialContent(schema)
		if !d.addHCL(hds) {
			return nil, false
		}
		for _, blk := range content.Blocks {
			if blk.Type == need {
				found = true
				continue
			}
			attrs, _, _ := blk.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "default"}}})
			vars[blk.Labels[0]] = attrs.Attributes["default"] != nil
		}
	}
	if need != "" && !found {
		d.errorf(p.Range, "%s has no %s block", files[0], need)
		return nil, false
	}
	return vars, true
}

// checkVariables compares the keys of the part's data object with the template's variables.
// Data that is not an object constructor with constant keys is checked at render time only.
func (d *decoder) checkVariables(p *Part, layer string, declared map[string]bool) {
	keys, ok := staticKeys(p.Data)
	if !ok {
		return
	}
	for name, rng := range keys {
		if _, found := declared[name]; !found {
			d.errorf(rng, "%s variable %q is not declared in %s (declared: %s)", layer, name, p.Path, strings.Join(sortedKeys(declared), ", "))
		}
	}
	var missing []string
	for name, hasDefault := range declared {
		if _, set := keys[name]; !set && !hasDefault {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		d.errorf(p.Range, "%s variables %s have no default in %s and the manifest does not set them", layer, strings.Join(missing, ", "), p.Path)
	}
}

// staticKeys returns the keys of an object constructor whose keys are all constant, with
// their positions; nil data is an empty object.
func staticKeys(expr hcl.Expression) (map[string]hcl.Range, bool) {
	keys := map[string]hcl.Range{}
	if expr == nil {
		return keys, true
	}
	obj, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return nil, false
	}
	for _, item := range obj.Items {
		k, hds := item.KeyExpr.Value(nil)
		if hds.HasErrors() || k.IsNull() || k.Type() != cty.String {
			return nil, false
		}
		keys[k.AsString()] = item.KeyExpr.Range()
	}
	return keys, true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// arg looks a positional argument up by name.
func (b *Blueprint) arg(name string) (*Arg, bool) {
	for i := range b.Args {
		if b.Args[i].Name == name {
			return &b.Args[i], true
		}
	}
	return nil, false
}

func argNames(b *Blueprint) []string {
	names := make([]string, len(b.Args))
	for i, a := range b.Args {
		names[i] = a.Name
	}
	return names
}

func nameList(what string, names []string) string {
	if len(names) == 0 {
		return "no " + what
	}
	return what + " " + strings.Join(names, ", ")
}

// label is how messages name the blueprint: "nextcloud" or "resize lvm".
func (b *Blueprint) label() string {
	if b.Kind == KindOperation {
		return fmt.Sprintf("%s %s", b.Verb, b.Name)
	}
	return b.Name
}
