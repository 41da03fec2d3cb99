package catalog

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Request is what to render: flags and args as typed values (from the grammar), the
// environment, and which variant (Terraform module, Nomad job) the environment deploys with.
type Request struct {
	Flags map[string]Value
	Args  []Value
	Env   string
	// Variant names the Terraform module and the Nomad job to render: "" is DefaultVariant
	// ("local"). A part without that variant renders its default, but a variant neither part
	// declares is a RequestError when the blueprint has a terraform part (a production
	// environment must not get the simulated cloud silently). Parts a blueprint lacks ignore it.
	Variant string
	// Deployed, when not nil, is asked by Resolve about each dependency: the declared values
	// (Value.Text by name) of the service as it is deployed in Env, and true; or false when it
	// is not deployed. A deployed dependency is rendered from those values with only the flags
	// its requirement sets on top, one not deployed from its defaults (see DeclaredFlags for
	// which declared values count). Render ignores it.
	Deployed func(service string) (values map[string]string, ok bool)
}

// Render evaluates the blueprint for req. A *RequestError means the request is wrong; any other
// error is a blueprint bug (an expression that fails), reported with the blueprint's Source and
// the expression's position. Render does not change b and is safe for concurrent use.
func (b *Blueprint) Render(req Request) (*Rendered, error) {
	r := &Rendered{Blueprint: b, Env: req.Env, Values: map[string]Value{}}
	flags, err := b.bindFlags(req.Flags, r.Values)
	if err != nil {
		return nil, err
	}
	if err := b.checkConstraints(r.Values); err != nil {
		return nil, err
	}
	args, err := b.bindArgs(req.Args, r.Values)
	if err != nil {
		return nil, err
	}
	ctx := evalContext(b, req.Env, flags, args)
	if r.Requires, err = b.renderRequires(ctx); err != nil {
		return nil, err
	}
	if p := b.Salt; p != nil {
		v, _ := b.SaltVariant(req.Variant) // a variant the state lacks runs its default state
		r.Salt = &RenderedSalt{Variant: v.Name, State: v.Path}
		if r.Salt.Text, err = b.readFile(v.Path); err == nil {
			r.Salt.Pillar, err = b.object(ctx, p.Data)
		}
		if err == nil {
			r.Salt.HoldsData, err = b.paths(ctx, v.HoldsDataPaths)
		}
	}
	if p := b.Terraform; p != nil && err == nil {
		v, ok := b.Variant(req.Variant)
		if !ok {
			_, nomadHas := b.NomadVariant(req.Variant)
			if _, saltHas := b.SaltVariant(req.Variant); !nomadHas && !saltHas {
				return nil, b.requestErr("no Terraform variant %q (%s)", req.Variant, nameList("variants", b.VariantNames()))
			}
			v, _ = b.Variant(DefaultVariant) // only the Nomad or Salt part has this variant
		}
		r.Terraform = &RenderedTerraform{Variant: v.Name, HoldsData: v.HoldsData}
		if r.Terraform.Files, err = b.readTree(v.Path); err == nil {
			r.Terraform.Vars, err = b.object(ctx, p.Data)
		}
	}
	if p := b.Nomad; p != nil && err == nil {
		v, _ := b.NomadVariant(req.Variant) // a variant the job lacks runs its default job
		r.Nomad = &RenderedNomad{Variant: v.Name, Job: v.Path, HoldsData: v.HoldsData}
		if r.Nomad.Template, err = b.readFile(v.Path); err == nil {
			r.Nomad.Vars, err = b.object(ctx, p.Data)
		}
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// bindFlags checks the given flags and returns every flag's expression value; values (given or
// default, never secret) are added to shown.
func (b *Blueprint) bindFlags(given map[string]Value, shown map[string]Value) (map[string]cty.Value, error) {
	for _, name := range sortedKeys(given) {
		f, ok := b.Flag(name)
		if !ok {
			return nil, b.requestErr("no flag --%s (%s)", name, nameList("flags", b.visibleFlags()))
		}
		if f.Secret {
			return nil, b.requestErr("--%s is secret and never typed in chat: Eos generates it and keeps it in Vault", name)
		}
	}
	out := make(map[string]cty.Value, len(b.Flags))
	for _, f := range b.Flags {
		v, given := given[f.Name]
		switch {
		case f.Secret:
			out[f.Name] = cty.NullVal(cty.String)
			continue
		case given:
			var err error
			if v, err = b.coerce(f.Type, f.Values, v); err != nil {
				return nil, b.requestErr("--%s: %v", f.Name, err)
			}
		case f.Default != nil:
			v = *f.Default
		case f.Type == Bool:
			v = BoolValue(false)
		case f.Required:
			return nil, b.requestErr("--%s is required: %s", f.Name, f.Description)
		default:
			out[f.Name] = cty.NullVal(ctyType(f.Type))
			continue
		}
		out[f.Name] = v.Cty()
		shown[f.Name] = v
	}
	return out, nil
}

// checkConstraints holds every flag value to its flag's constraints, wherever it came from:
// typed in chat (the grammar refused it already, with its column), kept from declared state on
// update or for a deployed dependency (a constraint added since), or set by a requires block.
// Requirements does not call it: finding who needs a service must work with stale values.
func (b *Blueprint) checkConstraints(values map[string]Value) error {
	for i := range b.Flags {
		f := &b.Flags[i]
		if v, ok := values[f.Name]; ok {
			if err := f.Check(v); err != nil {
				return b.requestErr("%v", err)
			}
		}
	}
	return nil
}

// bindArgs checks the positional arguments (their types and constraints) and returns them by
// name.
func (b *Blueprint) bindArgs(given []Value, shown map[string]Value) (map[string]cty.Value, error) {
	if len(given) != len(b.Args) {
		usage := make([]string, len(b.Args))
		for i, a := range b.Args {
			usage[i] = strings.ToUpper(a.Name)
		}
		return nil, b.requestErr("takes %d arguments (%s %s), got %d", len(b.Args), b.label(), strings.Join(usage, " "), len(given))
	}
	out := make(map[string]cty.Value, len(b.Args))
	for i := range b.Args {
		a := &b.Args[i]
		v, err := b.coerce(a.Type, a.Values, given[i])
		if err != nil {
			return nil, b.requestErr("%s: %v", strings.ToUpper(a.Name), err)
		}
		// The argument's constraints, checked here as well as by the grammar: a value that
		// reaches Render by another way (a stored spec, a test, a tool) is held to them too.
		if err := a.Check(v); err != nil {
			return nil, b.requestErr("%v", err)
		}
		out[a.Name] = v.Cty()
		shown[a.Name] = v
	}
	return out, nil
}

// coerce makes v a value of type t, parsed again from its text whatever its type: a
// dependency's flags arrive as plain strings and numbers, and a value built elsewhere (a
// stored spec, a tool) meets the same floor as one typed in chat (ParseValue: printed text,
// clean paths).
func (b *Blueprint) coerce(t Type, allowed []string, v Value) (Value, error) {
	v, err := ParseValue(t, v.Text)
	if err != nil {
		return Value{}, err
	}
	if t == Enum && !contains(allowed, v.Text) {
		return Value{}, fmt.Errorf("%q is not one of %s", v.Text, strings.Join(allowed, ", "))
	}
	return v, nil
}

func (b *Blueprint) visibleFlags() []string {
	var names []string
	for _, f := range b.Flags {
		if !f.Secret {
			names = append(names, f.Name)
		}
	}
	return names
}

func (b *Blueprint) requestErr(format string, args ...any) error {
	return &RequestError{Blueprint: b.label(), Message: fmt.Sprintf(format, args...)}
}

// bug wraps an evaluation problem, which is the blueprint's fault rather than the request's.
func (b *Blueprint) bug(hds hcl.Diagnostics) error {
	return fmt.Errorf("rendering blueprint %s: %w", b.Source, fromHCL(hds))
}

func (b *Blueprint) renderRequires(ctx *hcl.EvalContext) ([]Required, error) {
	var out []Required
	for _, rq := range b.Requires {
		if rq.When != nil {
			v, hds := rq.When.Value(ctx)
			if hds.HasErrors() {
				return nil, b.bug(hds)
			}
			if v, err := convert.Convert(v, cty.Bool); err != nil || v.IsNull() || !v.IsKnown() {
				return nil, b.bug(hcl.Diagnostics{exprDiag(rq.When, "when must be true or false")})
			} else if v.False() {
				continue
			}
		}
		flags := map[string]Value{}
		if rq.Flags != nil {
			obj, hds := rq.Flags.Value(ctx)
			if hds.HasErrors() {
				return nil, b.bug(hds)
			}
			if obj.IsNull() || !(obj.Type().IsObjectType() || obj.Type().IsMapType()) {
				return nil, b.bug(hcl.Diagnostics{exprDiag(rq.Flags, "flags must be an object, like { frontend-for = service.name }")})
			}
			for it := obj.ElementIterator(); it.Next(); {
				k, e := it.Element()
				if e.IsNull() {
					continue
				}
				v, err := toValue(e)
				if err != nil {
					return nil, b.bug(hcl.Diagnostics{exprDiag(rq.Flags, "flag "+k.AsString()+": "+err.Error())})
				}
				flags[k.AsString()] = v
			}
		}
		out = append(out, Required{Service: rq.Service, Flags: flags, Because: rq.Because})
	}
	return out, nil
}

// object evaluates a part's data expression into an object of plain Go values.
func (b *Blueprint) object(ctx *hcl.EvalContext, expr hcl.Expression) (map[string]any, error) {
	if expr == nil {
		return map[string]any{}, nil
	}
	v, hds := expr.Value(ctx)
	if hds.HasErrors() {
		return nil, b.bug(hds)
	}
	if v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return nil, b.bug(hcl.Diagnostics{exprDiag(expr, "this must be an object, like { name = service.name }")})
	}
	g, err := toGo(v)
	if err != nil {
		return nil, b.bug(hcl.Diagnostics{exprDiag(expr, err.Error())})
	}
	return g.(map[string]any), nil
}

// paths evaluates a Salt holds_data expression into absolute, clean paths.
func (b *Blueprint) paths(ctx *hcl.EvalContext, expr hcl.Expression) ([]string, error) {
	if expr == nil {
		return nil, nil
	}
	v, hds := expr.Value(ctx)
	if hds.HasErrors() {
		return nil, b.bug(hds)
	}
	g, err := toGo(v)
	list, ok := g.([]any)
	if err != nil || !ok {
		return nil, b.bug(hcl.Diagnostics{exprDiag(expr, `holds_data must be a list of paths, like ["/srv/${service.name}"]`)})
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		p, ok := x.(string)
		if !ok || !path.IsAbs(p) || path.Clean(p) != p {
			return nil, b.bug(hcl.Diagnostics{exprDiag(expr, fmt.Sprintf("holds_data entry %v is not an absolute, clean path on the minion (a mount point or a device)", x))})
		}
		out = append(out, p)
	}
	return out, nil
}

func exprDiag(expr hcl.Expression, msg string) *hcl.Diagnostic {
	rng := expr.Range()
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: msg, Subject: &rng}
}

// readFile is the content of the blueprint's file name (read once from the embedded
// blueprints: fixedfs.go).
func (b *Blueprint) readFile(name string) (string, error) {
	return cachedText(b.Files, name, func(name string) (string, error) {
		data, err := fs.ReadFile(b.Files, name)
		if err != nil {
			return "", fmt.Errorf("reading %s of blueprint %s: %w", name, b.Source, err)
		}
		return string(data), nil
	})
}

// readTree reads every regular file under dir, skipping .terraform directories (once from the
// embedded blueprints: fixedfs.go). The map is the caller's own.
func (b *Blueprint) readTree(dir string) (map[string]string, error) {
	return cachedTree(b.Files, dir, b.walkTree)
}

func (b *Blueprint) walkTree(dir string) (map[string]string, error) {
	files := map[string]string{}
	err := fs.WalkDir(b.Files, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".terraform" {
			return fs.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := fs.ReadFile(b.Files, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, path.Clean(dir)+"/")
		files[rel] = string(data)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading module %s of blueprint %s: %w", dir, b.Source, err)
	}
	return files, nil
}
