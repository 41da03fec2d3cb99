package catalog

import (
	"io/fs"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// VaultSecretsPathVar is the Nomad variable Eos sets itself in every job template that
// declares it (executor/nomad binds it): the Vault path of the service's secrets entry, one key
// per secret block. A manifest must not set it.
const VaultSecretsPathVar = "vault_secrets_path"

// nomadVariable is a variable block of a Nomad job template.
type nomadVariable struct {
	typ   cty.Type // cty.DynamicPseudoType without a type attribute
	typed string   // the type as written, for messages
}

// nomadJob parses one Nomad variant's job template; ok is false when it does not parse (Load
// reports that).
func (f *folder) nomadJob(v Variant) (*hclsyntax.Body, map[string]nomadVariable, bool) {
	if v.Path == "" || !fs.ValidPath(v.Path) {
		return nil, nil, false
	}
	src, err := fs.ReadFile(f.files, v.Path)
	if err != nil {
		return nil, nil, false
	}
	file, hds := hclsyntax.ParseConfig(src, f.display(v.Path), hcl.InitialPos)
	if hds.HasErrors() {
		return nil, nil, false
	}
	body := file.Body.(*hclsyntax.Body)
	vars := map[string]nomadVariable{}
	for _, blk := range body.Blocks {
		if blk.Type != "variable" || len(blk.Labels) != 1 {
			continue
		}
		nv := nomadVariable{typ: cty.DynamicPseudoType}
		if a := blk.Body.Attributes["type"]; a != nil {
			if ty, ok := typeExpr(a.Expr); ok {
				nv.typ = ty
				nv.typed = string(a.Expr.Range().SliceBytes(src))
			}
		}
		vars[blk.Labels[0]] = nv
	}
	return body, vars, true
}

// nomadVariants is the Nomad variants of the folder's blueprint, default first; none without a
// nomad part.
func (f *folder) nomadVariants() []Variant {
	if f.b.Nomad == nil {
		return nil
	}
	if len(f.b.NomadVariants) == 0 {
		return []Variant{{Name: DefaultVariant, Path: f.b.Nomad.Path, Range: f.b.Nomad.Range}}
	}
	return f.b.NomadVariants
}

// checkNomadReferences reports every var.NAME a job variant uses without a variable block
// declaring it: Nomad would refuse the job at deploy time.
func (f *folder) checkNomadReferences() Diagnostics {
	var diags Diagnostics
	for _, v := range f.nomadVariants() {
		body, vars, ok := f.nomadJob(v)
		if !ok {
			continue
		}
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
					diags = append(diags, at(st.SrcRange, "var.%s is not declared in %s: add a variable %q block", name, v.Path, name))
				}
				return nil
			})
		}
	}
	return diags
}

// checkNomadTypes converts each value the manifest passes to the type each job variant's
// variable block declares; one problem per variable names every variant refusing it.
func (f *folder) checkNomadTypes(values map[string]any) Diagnostics {
	type refusal struct {
		typed string
		err   error
		paths []string
	}
	refused := map[string]*refusal{}
	for _, v := range f.nomadVariants() {
		_, vars, ok := f.nomadJob(v)
		if !ok {
			continue
		}
		for name, value := range values {
			nv, declared := vars[name]
			if !declared || nv.typ == cty.DynamicPseudoType {
				continue
			}
			if err := fits(value, nv.typ); err != nil {
				if refused[name] == nil {
					refused[name] = &refusal{typed: nv.typed, err: err}
				}
				refused[name].paths = append(refused[name].paths, v.Path)
			}
		}
	}
	keys, _ := staticKeys(f.b.Nomad.Data)
	var diags Diagnostics
	if _, ok := values[VaultSecretsPathVar]; ok {
		diags = append(diags, at(keyRange(keys, VaultSecretsPathVar, f.b.Nomad.Range),
			"nomad variable %q is set by Eos (where the service's secrets are in Vault): remove it from the manifest", VaultSecretsPathVar))
	}
	for _, name := range sortedKeys(refused) {
		r := refused[name]
		diags = append(diags, at(keyRange(keys, name, f.b.Nomad.Range), "nomad variable %q is %s in %s, but the manifest gives it %s: %v",
			name, r.typed, strings.Join(r.paths, " and "), jsonText(values[name]), r.err))
	}
	return diags
}
