package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// In a nomad block (or one of its variants) holds_data names the job's task groups that hold
// data: holds_data = ["db"]. Stopping the job, dropping the group or replacing its
// allocations loses it, which the preview shows like a Terraform volume destroyed.

// groupsHoldingData decodes a nomad holds_data attribute; def is the block's range, for a
// variant without one.
func (d *decoder) groupsHoldingData(a *hcl.Attribute, def hcl.Range) ([]string, hcl.Range) {
	if a == nil {
		return nil, def
	}
	groups, ok := d.strings(a)
	if !ok {
		return nil, a.Expr.Range()
	}
	if groups == nil {
		groups = []string{} // written empty: this job keeps no data, on purpose
	}
	seen := map[string]bool{}
	for _, g := range groups {
		switch {
		case g == "" || strings.ContainsAny(g, " /\t\n"):
			d.errorf(a.Expr.Range(), "holds_data entry %q is not a task group name of the job: write the group's label, like \"db\"", g)
		case seen[g]:
			d.errorf(a.Expr.Range(), "holds_data names %q twice", g)
		}
		seen[g] = true
	}
	return groups, a.Expr.Range()
}

// jobGroups are the task group labels of a parsed job file.
func jobGroups(body *hclsyntax.Body) []string {
	var out []string
	for _, job := range body.Blocks {
		if job.Type != "job" {
			continue
		}
		for _, g := range job.Body.Blocks {
			if g.Type == "group" && len(g.Labels) == 1 {
				out = append(out, g.Labels[0])
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkNomadHoldsData wants every group a job variant marks as holding data to be a group of
// that variant's job, and, once one variant marks any, every variant to say which of its own
// hold data (holds_data = [] for none), as checkHoldsData does for Terraform modules.
func (f *folder) checkNomadHoldsData() Diagnostics {
	var diags Diagnostics
	variants := f.nomadVariants()
	marking := ""
	for _, v := range variants {
		if len(v.HoldsData) > 0 && marking == "" {
			marking = v.Name
		}
		body, _, ok := f.nomadJob(v)
		if !ok {
			continue
		}
		groups := jobGroups(body)
		for _, g := range v.HoldsData {
			if !slices.Contains(groups, g) {
				diags = append(diags, at(v.HoldsDataRange, "holds_data names group %q, which is not a task group of variant %s (%s); its groups: %s",
					g, v.Name, v.Path, strings.Join(groups, ", ")))
			}
		}
	}
	if marking == "" {
		return diags
	}
	for _, v := range variants {
		if v.HoldsData == nil {
			diags = append(diags, at(v.HoldsDataRange, "job variant %s (%s) does not say which of its task groups hold data, but variant %s does: %s",
				v.Name, v.Path, marking, fmt.Sprintf("add holds_data = [...] naming %s's own database groups (holds_data = [] if it keeps none)", v.Path)))
		}
	}
	return diags
}
