package catalog

// Layer names as Readers gives them, in run order.
var layerParts = []struct {
	name string
	part func(b *Blueprint) *Part
}{
	{"salt", func(b *Blueprint) *Part { return b.Salt }},
	{"terraform", func(b *Blueprint) *Part { return b.Terraform }},
	{"nomad", func(b *Blueprint) *Part { return b.Nomad }},
}

// Readers lists the layers whose data reads the flag or argument name (flag.NAME or arg.NAME
// in the pillar or the variables), in run order: "salt", "terraform", "nomad". A preview says
// with it where a changed value goes; a value no layer reads goes nowhere but may still decide
// a requires block.
func (b *Blueprint) Readers(name string) []string {
	var out []string
	for _, lp := range layerParts {
		p := lp.part(b)
		if p == nil || p.Data == nil {
			continue
		}
		for _, tr := range p.Data.Variables() {
			if root := tr.RootName(); root != "flag" && root != "arg" {
				continue
			}
			if n, ok := traversalName(tr); ok && n == name {
				out = append(out, lp.name)
				break
			}
		}
	}
	return out
}
