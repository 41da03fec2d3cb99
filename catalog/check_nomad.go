package catalog

import (
	"io/fs"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// nomadVariable is a variable block of a Nomad job template.
type nomadVariable struct {
	typ   cty.Type // cty.DynamicPseudoType without a type attribute
	typed string   // the type as written, for messages
}

// nomadJob parses the blueprint's Nomad job template; ok is false when it does not parse (Load
// reports that).
func (f *folder) nomadJob() (*hclsyntax.Body, map[string]nomadVariable, bool) {
	p := f.b.Nomad
	if p == nil || p.Path == "" || !fs.ValidPath(p.Path) {
		return nil, nil, false
	}
	src, err := fs.ReadFile(f.files, p.Path)
	if err != nil {
		return nil, nil, false
	}
	file, hds := hclsyntax.ParseConfig(src, f.display(p.Path), hcl.InitialPos)
	if hds.HasErrors() {
		return nil, nil, false
	}
	body := file.Body.(*hclsyntax.Body)
	vars := map[string]nomadVariable{}
	for _, blk := range body.Blocks {
		if blk.Type != "variable" || len(blk.Labels) != 1 {
			continue
		}
		v := nomadVariable{typ: cty.DynamicPseudoType}
		if a := blk.Body.Attributes["type"]; a != nil {
			if ty, ok := typeExpr(a.Expr); ok {
				v.typ = ty
				v.typed = string(a.Expr.Range().SliceBytes(src))
			}
		}
		vars[blk.Labels[0]] = v
	}
	return body, vars, true
}

// checkNomadReferences reports every var.NAME the job uses without a variable block declaring
// it: Nomad would refuse the job at deploy time.
func (f *folder) checkNomadReferences() Diagnostics {
	body, vars, ok := f.nomadJob()
	if !ok {
		return nil
	}
	var diags Diagnostics
	for _, blk := range body.Blocks {
		if blk.Type == "variable" {
			continue
		}
		hclsyntax.VisitAll(blk, func(n hclsyntax.Node) hcl.Diagnostics {
			st, ok := n.(*hclsyntax.ScopeTraversalExpr)
			if !ok || st.Traversal.RootName() != "var" {
				return nil
			}
			name, ok := traversalName(st.Traversal)
			switch _, declared := vars[name]; {
			case !ok:
				diags = append(diags, at(st.SrcRange, "refer to a variable by name, like var.NAME"))
			case !declared:
				diags = append(diags, at(st.SrcRange, "var.%s is not declared in %s: add a variable %q block", name, f.b.Nomad.Path, name))
			}
			return nil
		})
	}
	return diags
}

// checkNomadTypes converts each value the manifest passes to the type its variable block
// declares.
func (f *folder) checkNomadTypes(values map[string]any) Diagnostics {
	_, vars, ok := f.nomadJob()
	if !ok {
		return nil
	}
	keys, _ := staticKeys(f.b.Nomad.Data)
	var diags Diagnostics
	for _, name := range sortedKeys(values) {
		v, declared := vars[name]
		if !declared || v.typ == cty.DynamicPseudoType {
			continue
		}
		if err := fits(values[name], v.typ); err != nil {
			diags = append(diags, at(keyRange(keys, name, f.b.Nomad.Range), "nomad variable %q is %s in %s, but the manifest gives it %s: %v",
				name, v.typed, f.b.Nomad.Path, jsonText(values[name]), err))
		}
	}
	return diags
}
