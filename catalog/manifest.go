package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The shapes of a manifest, block by block. Anything else is reported as unsupported.
var (
	fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "service", LabelNames: []string{"name"}},
		{Type: "operation", LabelNames: []string{"verb", "name"}},
	}}
	serviceSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "description", Required: true}},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "flag", LabelNames: []string{"name"}},
			{Type: "requires", LabelNames: []string{"service"}},
			{Type: "secret", LabelNames: []string{"name"}},
			{Type: "salt"}, {Type: "terraform"}, {Type: "nomad"},
		},
	}
	operationSchema = &hcl.BodySchema{
		Attributes: serviceSchema.Attributes,
		Blocks:     append([]hcl.BlockHeaderSchema{{Type: "arg", LabelNames: []string{"name"}}}, serviceSchema.Blocks...),
	}
	flagSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "type", Required: true}, {Name: "description", Required: true},
		{Name: "default"}, {Name: "values"}, {Name: "secret"}, {Name: "required"},
		{Name: "min"}, {Name: "max"}, {Name: "pattern"},
	}}
	argSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "type", Required: true}, {Name: "description", Required: true},
		{Name: "values"}, {Name: "min"}, {Name: "max"}, {Name: "pattern"},
	}}
	requiresSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "when"}, {Name: "flags"}, {Name: "because", Required: true},
	}}
	secretSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "description", Required: true}}}
)

// partSchemas gives, per layer block, the attribute naming its file and the one holding its data.
var partSchemas = map[string][2]string{
	"salt":      {"state", "pillar"},
	"terraform": {"module", "variables"},
	"nomad":     {"job", "variables"},
}

var (
	wordName   = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	secretName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// decoder turns one blueprint folder's manifest.hcl into a Blueprint, collecting every problem.
type decoder struct {
	src   Source
	dir   string // the folder, relative to src.FS
	files fs.FS  // the folder itself
	diags Diagnostics
	// decl is the range of the service or operation block, for messages about the blueprint.
	decl hcl.Range
}

func (d *decoder) errorf(rng hcl.Range, format string, args ...any) {
	d.diags = append(d.diags, at(rng, format, args...))
}

func (d *decoder) addHCL(hds hcl.Diagnostics) bool {
	ds := fromHCL(hds)
	d.diags = append(d.diags, ds...)
	return len(ds) == 0
}

// decode reads the folder's manifest; the Blueprint is nil when it could not be read at all.
func (d *decoder) decode() *Blueprint {
	name := d.src.display(path.Join(d.dir, manifestName))
	src, err := fs.ReadFile(d.files, manifestName)
	if err != nil {
		d.diags = append(d.diags, Diagnostic{File: name, Message: fmt.Sprintf("every blueprint folder needs a %s: %v", manifestName, err)})
		return nil
	}
	file, hds := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if !d.addHCL(hds) {
		return nil
	}
	content, hds := file.Body.Content(fileSchema)
	if !d.addHCL(hds) {
		return nil
	}
	if len(content.Blocks) != 1 {
		rng := file.Body.MissingItemRange()
		if len(content.Blocks) > 1 {
			rng = content.Blocks[1].DefRange
		}
		d.errorf(rng, "a manifest declares exactly one service or operation block, found %d", len(content.Blocks))
		return nil
	}
	block := content.Blocks[0]
	d.decl = block.DefRange
	b := &Blueprint{Kind: Kind(block.Type), Name: block.Labels[0], Files: d.files, Source: d.src.folderName(d.dir)}
	schema := serviceSchema
	if b.Kind == KindOperation {
		schema = operationSchema
		b.Verb, b.Name = block.Labels[0], block.Labels[1]
		d.checkWord(block.LabelRanges[0], "verb", b.Verb)
		d.checkWord(block.LabelRanges[1], "operation name", b.Name)
	} else {
		d.checkWord(block.LabelRanges[0], "service name", b.Name)
	}
	body, hds := block.Body.Content(schema)
	d.addHCL(hds)
	if a := body.Attributes["description"]; a != nil {
		b.Description, _ = d.str(a)
	}
	d.blocks(b, body.Blocks)
	d.checkExpressions(b)
	d.checkParts(b)
	if b.Kind == KindOperation && b.Salt == nil && b.Terraform == nil && b.Nomad == nil {
		d.errorf(block.DefRange, "operation %s %s has no salt, terraform or nomad block: it would do nothing", b.Verb, b.Name)
	}
	return b
}

// blocks decodes the blocks inside the service or operation block, in manifest order.
func (d *decoder) blocks(b *Blueprint, blocks hcl.Blocks) {
	seen := map[string]hcl.Range{} // "flag sso", "salt" → where first declared
	for _, blk := range blocks {
		key := strings.Join(append([]string{blk.Type}, blk.Labels...), " ")
		if blk.Type == "arg" || blk.Type == "flag" {
			key = "name " + blk.Labels[0] // flags and args share the names of Rendered.Values
		}
		if first, dup := seen[key]; dup {
			d.errorf(blk.DefRange, "%s is declared twice (first at line %d)", describeBlock(blk), first.Start.Line)
			continue
		}
		seen[key] = blk.DefRange
		switch blk.Type {
		case "flag":
			b.Flags = append(b.Flags, d.flag(blk))
		case "arg":
			b.Args = append(b.Args, d.arg(blk))
		case "requires":
			b.Requires = append(b.Requires, d.requires(blk))
		case "secret":
			b.Secrets = append(b.Secrets, d.secret(blk))
		case "salt":
			b.Salt, b.SaltVariants = d.variantPart(blk)
		case "terraform":
			b.Terraform, b.Variants = d.variantPart(blk)
		case "nomad":
			b.Nomad, b.NomadVariants = d.variantPart(blk)
		}
	}
}

func describeBlock(blk *hcl.Block) string {
	if len(blk.Labels) == 0 {
		return "the " + blk.Type + " block"
	}
	return fmt.Sprintf("%s %q", blk.Type, blk.Labels[0])
}

func (d *decoder) checkWord(rng hcl.Range, what, name string) bool {
	if !wordName.MatchString(name) {
		d.errorf(rng, "%s %q must be lowercase words joined by hyphens, like distributed-storage", what, name)
		return false
	}
	return true
}

// flag decodes a flag block. A flag with problems is still returned (the load fails anyway), so
// that expressions naming it are not reported as naming an unknown flag too.
func (d *decoder) flag(blk *hcl.Block) Flag {
	f := Flag{Name: blk.Labels[0], Range: blk.DefRange}
	d.checkWord(blk.LabelRanges[0], "flag name", f.Name)
	content, hds := blk.Body.Content(flagSchema)
	d.addHCL(hds)
	f.Type = d.typeKeyword(content.Attributes["type"])
	f.Description, _ = d.str(content.Attributes["description"])
	if a := content.Attributes["secret"]; a != nil {
		f.Secret, _ = d.boolean(a)
	}
	if a := content.Attributes["required"]; a != nil {
		f.Required, _ = d.boolean(a)
	}
	d.values(&f, content.Attributes, blk)
	d.constraints(&f, content.Attributes)
	if a := content.Attributes["default"]; a != nil && f.Type != "" {
		switch {
		case f.Secret:
			d.errorf(a.NameRange, "secret flag %q cannot have a default: Eos generates its value into Vault", f.Name)
		case f.Required:
			d.errorf(a.NameRange, "required flag %q cannot have a default", f.Name)
		default:
			if v, good := d.defaultValue(a, f); good {
				f.Default = &v
			}
		}
	}
	return f
}

// defaultValue reads a constant default and parses it as the flag's type.
func (d *decoder) defaultValue(a *hcl.Attribute, f Flag) (Value, bool) {
	cv, hds := a.Expr.Value(nil)
	if !d.addHCL(hds) {
		return Value{}, false
	}
	text, good := constText(cv)
	if !good {
		d.errorf(a.Expr.Range(), "default for flag %q must be a constant string, number, bool or list of strings", f.Name)
		return Value{}, false
	}
	v, err := ParseValue(f.Type, text)
	if err != nil {
		d.errorf(a.Expr.Range(), "default for flag %q does not fit its type %s: %v", f.Name, f.Type, err)
		return Value{}, false
	}
	if f.Type == Enum && len(f.Values) > 0 && !contains(f.Values, v.Text) {
		d.errorf(a.Expr.Range(), "default %q of flag %q is not one of its values (%s)", v.Text, f.Name, strings.Join(f.Values, ", "))
		return Value{}, false
	}
	if err := f.Check(v); err != nil {
		d.errorf(a.Expr.Range(), "default for flag %q breaks its own constraint: %v", f.Name, err)
		return Value{}, false
	}
	return v, true
}

// values decodes an enum's values: required for enums, refused for any other type.
func (d *decoder) values(f *Flag, attrs hcl.Attributes, blk *hcl.Block) {
	a := attrs["values"]
	switch {
	case a == nil && f.Type == Enum:
		d.errorf(blk.DefRange, "enum %s %q needs values = [...], the words it accepts", f.kind(), f.Name)
	case a == nil:
	case f.Type != Enum && f.Type != "":
		d.errorf(a.NameRange, "values is only for enum %ss; %s %q is %s", f.kind(), f.kind(), f.Name, f.Type)
	default:
		if vs, good := d.strings(a); good {
			if len(vs) == 0 {
				d.errorf(a.Expr.Range(), "enum %s %q needs at least one value", f.kind(), f.Name)
			}
			f.Values = vs
		}
	}
}

// arg decodes an arg block: a type, a description, and the constraints a flag takes, decoded
// by the same code (through the argument's flag view).
func (d *decoder) arg(blk *hcl.Block) Arg {
	f := Flag{Name: blk.Labels[0], Range: blk.DefRange, positional: true}
	d.checkWord(blk.LabelRanges[0], "argument name", f.Name)
	content, hds := blk.Body.Content(argSchema)
	d.addHCL(hds)
	f.Type = d.typeKeyword(content.Attributes["type"])
	f.Description, _ = d.str(content.Attributes["description"])
	d.values(&f, content.Attributes, blk)
	d.constraints(&f, content.Attributes)
	return Arg{Name: f.Name, Type: f.Type, Description: f.Description, Values: f.Values,
		Min: f.Min, Max: f.Max, Pattern: f.Pattern, Range: f.Range}
}

func (d *decoder) requires(blk *hcl.Block) Requirement {
	r := Requirement{Service: blk.Labels[0], Range: blk.DefRange}
	content, hds := blk.Body.Content(requiresSchema)
	d.addHCL(hds)
	if a := content.Attributes["when"]; a != nil {
		r.When = a.Expr
	}
	if a := content.Attributes["flags"]; a != nil {
		r.Flags = a.Expr
	}
	if a := content.Attributes["because"]; a != nil {
		r.Because, _ = d.str(a)
	}
	return r
}

func (d *decoder) secret(blk *hcl.Block) SecretDecl {
	s := SecretDecl{Name: blk.Labels[0]}
	if !secretName.MatchString(s.Name) {
		d.errorf(blk.LabelRanges[0], "secret name %q must be lowercase letters, digits and underscores, like admin_password", s.Name)
	}
	content, hds := blk.Body.Content(secretSchema)
	d.addHCL(hds)
	if a := content.Attributes["description"]; a != nil {
		s.Description, _ = d.str(a)
	}
	return s
}

// part decodes a salt block.
func (d *decoder) part(blk *hcl.Block) *Part {
	p, _ := d.partContent(blk, nil)
	return p
}

// partContent decodes a layer block that may hold the nested blocks given.
func (d *decoder) partContent(blk *hcl.Block, blocks []hcl.BlockHeaderSchema) (*Part, *hcl.BodyContent) {
	names := partSchemas[blk.Type]
	attrs := []hcl.AttributeSchema{{Name: names[0], Required: true}, {Name: names[1]}}
	if blk.Type == "terraform" || blk.Type == "salt" || blk.Type == "nomad" {
		attrs = append(attrs, hcl.AttributeSchema{Name: holdsDataAttr})
	}
	content, hds := blk.Body.Content(&hcl.BodySchema{Attributes: attrs, Blocks: blocks})
	d.addHCL(hds)
	p := &Part{Range: blk.DefRange}
	if a := content.Attributes[names[0]]; a != nil {
		p.Path, _ = d.str(a)
		p.Range = a.Expr.Range()
	}
	if a := content.Attributes[names[1]]; a != nil {
		p.Data = a.Expr
	}
	return p, content
}

// variantPart decodes a salt, terraform or nomad block: its state (module, job) is
// DefaultVariant, and each variant block names another state (module, job) receiving the same
// pillar (variables).
func (d *decoder) variantPart(blk *hcl.Block) (*Part, []Variant) {
	attr := partSchemas[blk.Type][0]
	p, content := d.partContent(blk, []hcl.BlockHeaderSchema{{Type: "variant", LabelNames: []string{"name"}}})
	variants := []Variant{{Name: DefaultVariant, Path: p.Path, Range: p.Range}}
	vattrs := []hcl.AttributeSchema{{Name: attr, Required: true}}
	switch blk.Type {
	case "terraform":
		variants[0].HoldsData, variants[0].HoldsDataRange = d.holdsData(content.Attributes[holdsDataAttr], blk.DefRange)
		vattrs = append(vattrs, hcl.AttributeSchema{Name: holdsDataAttr})
	case "salt":
		if a := content.Attributes[holdsDataAttr]; a != nil {
			variants[0].HoldsDataPaths, variants[0].HoldsDataRange = a.Expr, a.Expr.Range()
		}
		vattrs = append(vattrs, hcl.AttributeSchema{Name: holdsDataAttr})
	case "nomad":
		variants[0].HoldsData, variants[0].HoldsDataRange = d.groupsHoldingData(content.Attributes[holdsDataAttr], blk.DefRange)
		vattrs = append(vattrs, hcl.AttributeSchema{Name: holdsDataAttr})
	}
	seen := map[string]hcl.Range{}
	for _, vb := range content.Blocks {
		name := vb.Labels[0]
		vc, hds := vb.Body.Content(&hcl.BodySchema{Attributes: vattrs})
		d.addHCL(hds)
		switch first, dup := seen[name]; {
		case !d.checkWord(vb.LabelRanges[0], "variant name", name):
			continue
		case name == DefaultVariant:
			d.errorf(vb.LabelRanges[0], "variant %q is the %s block's own %s; give this variant another name", name, blk.Type, attr)
			continue
		case dup:
			d.errorf(vb.DefRange, "variant %q is declared twice (first at line %d)", name, first.Start.Line)
			continue
		}
		seen[name] = vb.DefRange
		v := Variant{Name: name, Range: vb.DefRange}
		if a := vc.Attributes[attr]; a != nil {
			v.Path, _ = d.str(a)
			v.Range = a.Expr.Range()
		}
		switch a := vc.Attributes[holdsDataAttr]; {
		case blk.Type == "terraform":
			v.HoldsData, v.HoldsDataRange = d.holdsData(a, vb.DefRange)
		case blk.Type == "salt" && a != nil:
			v.HoldsDataPaths, v.HoldsDataRange = a.Expr, a.Expr.Range()
		case blk.Type == "nomad":
			v.HoldsData, v.HoldsDataRange = d.groupsHoldingData(a, vb.DefRange)
		}
		variants = append(variants, v)
	}
	return p, variants
}
