package catalog

import (
	"slices"
	"testing"
)

// The shipped database jobs say which group holds data in production (PostgreSQL in "db"),
// the local jobs that they keep none; a render hands the production list on.
func TestShippedNomadJobsHoldingData(t *testing.T) {
	c := loadEmbedded(t)
	for _, name := range []string{"nextcloud", "authentik"} {
		b, _ := c.Service(name)
		for variant, want := range map[string][]string{"": {}, "production": {"db"}} {
			v, _ := b.NomadVariant(variant)
			if v == nil || v.HoldsData == nil || !slices.Equal(v.HoldsData, want) {
				t.Errorf("%s nomad variant %q holds data %v, want %v", name, variant, v, want)
			}
		}
		r, err := b.Render(Request{Env: "production", Variant: "production", Flags: map[string]Value{}})
		if err != nil {
			t.Fatalf("rendering %s: %v", name, err)
		}
		if !slices.Equal(r.Nomad.HoldsData, []string{"db"}) {
			t.Errorf("%s rendered nomad holds data %v, want [db]", name, r.Nomad.HoldsData)
		}
	}
}
