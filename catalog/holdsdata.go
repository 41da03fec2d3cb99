package catalog

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// holdsDataAttr marks, in a terraform block or one of its variant blocks, the resources of
// that module that hold data: holds_data = ["eoslab_volume.data"].
const holdsDataAttr = "holds_data"

// resourceAddress is a resource of the module itself: TYPE.NAME.
var resourceAddress = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]*\.[a-zA-Z_][a-zA-Z0-9_-]*$`)

// holdsData decodes a holds_data attribute; def is the block's range, for a variant without
// one.
func (d *decoder) holdsData(a *hcl.Attribute, def hcl.Range) ([]string, hcl.Range) {
	if a == nil {
		return nil, def
	}
	addrs, ok := d.strings(a)
	if !ok {
		return nil, a.Expr.Range()
	}
	if addrs == nil {
		addrs = []string{} // written empty: this module keeps no data, on purpose
	}
	seen := map[string]bool{}
	for _, addr := range addrs {
		switch {
		case !resourceAddress.MatchString(addr):
			d.errorf(a.Expr.Range(), "holds_data entry %q is not a resource address of the module: write TYPE.NAME, like \"eoslab_volume.data\"", addr)
		case seen[addr]:
			d.errorf(a.Expr.Range(), "holds_data names %q twice", addr)
		}
		seen[addr] = true
	}
	return addrs, a.Expr.Range()
}

// checkHoldsData wants every address a variant marks as holding data to be a managed resource
// of that variant's module, and, once one variant marks any, every variant to say which of its
// own hold data (holds_data = [] for none): a production module that forgot its list would
// lose data without a warning.
func (f *folder) checkHoldsData(mods []inspected) Diagnostics {
	var diags Diagnostics
	marking := ""
	for _, m := range mods {
		if len(m.variant.HoldsData) > 0 && marking == "" {
			marking = m.variant.Name
		}
		var known []string
		for addr := range m.mod.ManagedResources {
			known = append(known, addr)
		}
		slices.Sort(known)
		for _, addr := range m.variant.HoldsData {
			if !slices.Contains(known, addr) {
				diags = append(diags, at(m.variant.HoldsDataRange, "holds_data names %q, which is not a resource of variant %s (%s); its resources: %s",
					addr, m.variant.Name, m.variant.Path, strings.Join(known, ", ")))
			}
		}
	}
	if marking == "" {
		return diags
	}
	for _, m := range mods {
		if m.variant.HoldsData == nil {
			diags = append(diags, at(m.variant.HoldsDataRange, "variant %s (%s) does not say which of its resources hold data, but variant %s does: %s",
				m.variant.Name, m.variant.Path, marking, fmt.Sprintf("add holds_data = [...] naming %s's own volumes and databases (holds_data = [] if it keeps none)", m.variant.Path)))
		}
	}
	return diags
}
