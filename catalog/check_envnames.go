package catalog

import (
	"fmt"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// envNamesCheck are the two environments checkEnvNames renders every variant for: any name a
// blueprint gives to something outside Eos must differ between them, or deploying the service
// in a second environment collides with the first (the same firewall, server, data directory).
var envNamesCheck = [2]string{"staging", "production"}

// checkEnvNames renders each variant of a service for two environments and refuses every name
// that stays the same: a Terraform resource's name (with its zone, for a DNS record), a path
// or name in the Salt pillar or holds_data, a Nomad service's name. Values the expressions
// cannot know before deploying (another resource's id, a Nomad runtime variable) are left
// alone; so are operations, which act on what their arguments name.
func (f *folder) checkEnvNames(c *Catalog) Diagnostics {
	b := f.b
	if b.Kind != KindService {
		return nil
	}
	exs := exampleRequests(c, b)
	if len(exs) == 0 {
		return nil
	}
	var diags Diagnostics
	for _, variant := range f.allVariantNames() {
		var rs [2]*Rendered
		for i, env := range envNamesCheck {
			req := exs[0].req
			req.Env, req.Variant = env, variant
			r, err := b.Render(req)
			if err != nil {
				return diags // checkVariantsRender reports it
			}
			rs[i] = r
		}
		same := func(rng hcl.Range, what, value string) {
			diags = append(diags, at(rng, "%s (%s): %s %q is the same in every environment; include the environment (${env})", b.Name, variant, what, value))
		}
		if rs[0].Terraform != nil && rs[0].Terraform.Variant == variant {
			a, b := terraformNames(rs[0].Terraform, rs[0].Env), terraformNames(rs[1].Terraform, rs[1].Env)
			for _, k := range sortedKeys(a) {
				if n, ok := b[k]; ok && n.value == a[k].value {
					same(f.rangeIn(rs[0].Terraform, n.rng), k+" name", n.value)
				}
			}
		}
		if rs[0].Salt != nil && rs[0].Salt.Variant == variant {
			keys, _ := staticKeys(f.b.Salt.Data)
			for _, k := range sortedKeys(rs[0].Salt.Pillar) {
				v, ok := rs[0].Salt.Pillar[k].(string)
				if ok && isMinionName(k, v) && rs[1].Salt.Pillar[k] == v {
					same(keyRange(keys, k, f.b.Salt.Range), "salt pillar "+k, v)
				}
			}
			for _, p := range rs[0].Salt.HoldsData {
				if contains(rs[1].Salt.HoldsData, p) {
					same(f.saltHoldsDataRange(variant), "salt holds_data", p)
				}
			}
		}
		if rs[0].Nomad != nil && rs[0].Nomad.Variant == variant {
			job := f.display(rs[0].Nomad.Job)
			a, b := nomadServiceNames(rs[0], job), nomadServiceNames(rs[1], job)
			for _, k := range sortedKeys(a) {
				if n, ok := b[k]; ok && n.value == a[k].value {
					same(n.rng, "nomad service", n.value)
				}
			}
		}
	}
	return diags
}

// allVariantNames is every variant any part of the blueprint declares, default first.
func (f *folder) allVariantNames() []string {
	names := []string{DefaultVariant}
	for _, vs := range [][]Variant{f.b.Variants, f.b.SaltVariants, f.b.NomadVariants} {
		for _, v := range vs {
			if !contains(names, v.Name) {
				names = append(names, v.Name)
			}
		}
	}
	return names
}

// isMinionName says whether a pillar value names something on the minion: an absolute path, or
// the value of a key that says it is a name (lv_name).
func isMinionName(key, value string) bool {
	return strings.HasPrefix(value, "/") || key == "name" || strings.HasSuffix(key, "_name")
}

// saltHoldsDataRange is where the salt part (or its variant) sets holds_data.
func (f *folder) saltHoldsDataRange(variant string) hcl.Range {
	if v, ok := f.b.SaltVariant(variant); ok && v.HoldsDataPaths != nil {
		return v.HoldsDataPaths.Range()
	}
	return f.b.Salt.Range
}

// rangeIn makes a range parsed from a rendered module file point at the file in the folder.
func (f *folder) rangeIn(t *RenderedTerraform, rng hcl.Range) hcl.Range {
	if v, ok := f.b.Variant(t.Variant); ok {
		rng.Filename = f.display(path.Join(v.Path, rng.Filename))
	}
	return rng
}

// namedThing is one name a template gives, and where.
type namedThing struct {
	value string
	rng   hcl.Range
}

// terraformFunctions are the Terraform functions names are commonly built with; a name that
// calls another is not judged.
var terraformFunctions = map[string]function.Function{
	"split": stdlib.SplitFunc, "join": stdlib.JoinFunc, "slice": stdlib.SliceFunc,
	"length": stdlib.LengthFunc, "trimsuffix": stdlib.TrimSuffixFunc, "trimprefix": stdlib.TrimPrefixFunc,
	"format": stdlib.FormatFunc, "lower": stdlib.LowerFunc, "upper": stdlib.UpperFunc,
	"replace": stdlib.ReplaceFunc, "substr": stdlib.SubstrFunc, "concat": stdlib.ConcatFunc,
	"coalesce": stdlib.CoalesceFunc, "contains": stdlib.ContainsFunc, "element": stdlib.ElementFunc,
	"trimspace": stdlib.TrimSpaceFunc, "merge": stdlib.MergeFunc, "lookup": stdlib.LookupFunc,
}

// terraformNames evaluates the name of every resource of a rendered module, by address
// ("eoslab_firewall.main"): its name attribute, qualified by its zone when it has one (a DNS
// record is its name in its zone). Resources whose name is not known before apply are left
// out.
func terraformNames(t *RenderedTerraform, env string) map[string]namedThing {
	var bodies []*hclsyntax.Body
	for _, name := range sortedKeys(t.Files) {
		if !strings.HasSuffix(name, ".tf") {
			continue
		}
		file, hds := hclsyntax.ParseConfig([]byte(t.Files[name]), name, hcl.InitialPos)
		if hds.HasErrors() {
			continue // Load and terraform fmt report it
		}
		bodies = append(bodies, file.Body.(*hclsyntax.Body))
	}
	vars := map[string]cty.Value{}
	locals := map[string]hcl.Expression{}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: terraformFunctions}
	for _, body := range bodies {
		for _, blk := range body.Blocks {
			switch {
			case blk.Type == "variable" && len(blk.Labels) == 1:
				v := cty.DynamicVal
				if g, ok := t.Vars[blk.Labels[0]]; ok {
					v = goToCty(g)
				} else if a := blk.Body.Attributes["default"]; a != nil {
					if d, hds := a.Expr.Value(nil); !hds.HasErrors() {
						v = d
					}
				}
				vars[blk.Labels[0]] = v
			case blk.Type == "locals":
				for name, a := range blk.Body.Attributes {
					locals[name] = a.Expr
				}
			case blk.Type == "resource" && len(blk.Labels) == 2:
				ctx.Variables[blk.Labels[0]] = cty.DynamicVal // other resources are unknown
			}
		}
	}
	for _, n := range []string{"data", "module", "path", "terraform", "count", "each", "self"} {
		ctx.Variables[n] = cty.DynamicVal
	}
	ctx.Variables["var"] = objectOrEmpty(vars)
	// Locals may use each other: evaluate them until no more become known.
	known := map[string]cty.Value{}
	for progress := true; progress; {
		progress = false
		ctx.Variables["local"] = localsObject(locals, known)
		for name, expr := range locals {
			if _, done := known[name]; done {
				continue
			}
			if v, hds := expr.Value(ctx); !hds.HasErrors() && v.IsWhollyKnown() {
				known[name], progress = v, true
			}
		}
	}
	ctx.Variables["local"] = localsObject(locals, known)
	out := map[string]namedThing{}
	for _, body := range bodies {
		for _, blk := range body.Blocks {
			if blk.Type != "resource" || len(blk.Labels) != 2 {
				continue
			}
			a := blk.Body.Attributes["name"]
			if a == nil {
				continue
			}
			name, ok := knownString(ctx, a.Expr)
			if !ok {
				continue
			}
			for _, q := range []string{"zone", "zone_id"} {
				if z := blk.Body.Attributes[q]; z != nil {
					zone, ok := knownString(ctx, z.Expr)
					if !ok {
						name = "" // its zone is only known at apply: not judged
					} else if name == "@" {
						name = zone
					} else {
						name += "." + zone
					}
				}
			}
			if name != "" {
				out[blk.Labels[0]+"."+blk.Labels[1]] = namedThing{name, a.SrcRange}
			}
		}
	}
	return out
}

func localsObject(all map[string]hcl.Expression, known map[string]cty.Value) cty.Value {
	m := make(map[string]cty.Value, len(all))
	for name := range all {
		if v, ok := known[name]; ok {
			m[name] = v
		} else {
			m[name] = cty.DynamicVal
		}
	}
	return objectOrEmpty(m)
}

// knownString evaluates expr to a string known before apply.
func knownString(ctx *hcl.EvalContext, expr hcl.Expression) (string, bool) {
	v, hds := expr.Value(ctx)
	if hds.HasErrors() || !v.IsWhollyKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// goToCty is the inverse of toGo for the values a manifest renders.
func goToCty(g any) cty.Value {
	switch x := g.(type) {
	case nil:
		return cty.NullVal(cty.DynamicPseudoType)
	case string:
		return cty.StringVal(x)
	case bool:
		return cty.BoolVal(x)
	case int64:
		return cty.NumberIntVal(x)
	case float64:
		return cty.NumberFloatVal(x)
	case []any:
		if len(x) == 0 {
			return cty.EmptyTupleVal
		}
		vs := make([]cty.Value, len(x))
		for i, e := range x {
			vs[i] = goToCty(e)
		}
		return cty.TupleVal(vs)
	case map[string]any:
		m := make(map[string]cty.Value, len(x))
		for k, e := range x {
			m[k] = goToCty(e)
		}
		return objectOrEmpty(m)
	}
	return cty.DynamicVal
}

// nomadServiceNames evaluates the name of every service block of a rendered job, by its place
// ("group grafana service 1"). NOMAD_JOB_NAME is the job's ID as Eos names it (service--env);
// other runtime variables are not known, and a name using one is not judged.
func nomadServiceNames(r *Rendered, filename string) map[string]namedThing {
	file, hds := hclsyntax.ParseConfig([]byte(r.Nomad.Template), filename, hcl.InitialPos)
	if hds.HasErrors() {
		return nil
	}
	body := file.Body.(*hclsyntax.Body)
	vars := map[string]cty.Value{}
	for _, blk := range body.Blocks {
		if blk.Type != "variable" || len(blk.Labels) != 1 {
			continue
		}
		v := cty.DynamicVal
		if g, ok := r.Nomad.Vars[blk.Labels[0]]; ok {
			v = goToCty(g)
		} else if a := blk.Body.Attributes["default"]; a != nil {
			if d, hds := a.Expr.Value(nil); !hds.HasErrors() {
				v = d
			}
		}
		vars[blk.Labels[0]] = v
	}
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"var": objectOrEmpty(vars), "NOMAD_JOB_NAME": cty.StringVal(r.Blueprint.Name + "--" + r.Env)},
		Functions: terraformFunctions,
	}
	out := map[string]namedThing{}
	var walk func(b *hclsyntax.Body, where string)
	walk = func(b *hclsyntax.Body, where string) {
		n := 0
		for _, blk := range b.Blocks {
			here := strings.TrimSpace(where + " " + blk.Type + " " + strings.Join(blk.Labels, " "))
			if blk.Type == "service" {
				n++
				if a := blk.Body.Attributes["name"]; a != nil {
					if name, ok := knownString(ctx, a.Expr); ok {
						out[fmt.Sprintf("%s %d", here, n)] = namedThing{name, a.SrcRange}
					}
				}
				continue
			}
			if blk.Type != "variable" {
				walk(blk.Body, here)
			}
		}
	}
	walk(body, "")
	return out
}
