package intents

import (
	"reflect"
	"testing"

	"github.com/eosbot/eos/catalog"
)

var valueSeeds = []string{
	"100G", "+50G", "100GiB", "1.5T", "500GB", "500gb", "500Gb", "10m", "10k", "1K", "0G", "-5G",
	"G", "+G", "1e3G", "NaNG", "InfT", "+Inf", "99999999T", "0.0000000001K", "0x10G", "1_0G",
	"cloud.example.org", "Cloud.Example.ORG", "a", "-a.org", "a-.org", "a..b", ".a", "a.", "ex_ample.org",
	"élan.org", "a.org,b.org", "a, b", " a", "a,", ",", "", "node1,node2,node3", "a\u00a0,b", "x\u00a0",
	"a\x00,b", "a,b\n", "a\t,b", "a\u202e,b", "a,\u200bb", "a\xff,b", "a\x7f",
}

// checkAgainstReference asserts that parseValue and catalog.ParseValue agree on s: the same
// Value when the fast path accepts, and for sizes, a refusal of anything that is not a
// positive int64 number of bytes even where the reference accepts it.
func checkAgainstReference(t *testing.T, typ catalog.Type, s string) {
	got, gotErr := parseValue(typ, s)
	want, wantErr := catalog.ParseValue(typ, s)
	switch {
	case gotErr == nil && wantErr != nil:
		t.Errorf("%s %q: fast path accepts %+v, reference refuses: %v", typ, s, got, wantErr)
	case gotErr == nil && !reflect.DeepEqual(got, want):
		t.Errorf("%s %q: fast path %+v, reference %+v", typ, s, got, want)
	case gotErr != nil && wantErr == nil && (typ != catalog.Size || want.Bytes > 0 && want.Bytes < 1<<62):
		t.Errorf("%s %q: fast path refuses (%v), reference accepts %+v", typ, s, gotErr, want)
	case gotErr != nil && wantErr != nil && gotErr.Error() != wantErr.Error():
		t.Errorf("%s %q: message %q, reference says %q", typ, s, gotErr, wantErr)
	}
}

func TestParseValueMatchesCatalog(t *testing.T) {
	for _, s := range valueSeeds {
		for _, typ := range []catalog.Type{catalog.Size, catalog.Hostname, catalog.List} {
			checkAgainstReference(t, typ, s)
		}
	}
}

func TestParseValueRefusesOddSizes(t *testing.T) {
	for _, s := range []string{"NaNG", "InfT", "+Inf", "99999999T", "0.0000000001K"} {
		if v, err := parseValue(catalog.Size, s); err == nil {
			t.Errorf("size %q accepted as %+v", s, v)
		}
	}
}

func FuzzTypedValue(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range []catalog.Type{catalog.Size, catalog.Hostname, catalog.List} {
			checkAgainstReference(t, typ, s)
		}
	})
}

// The fast paths exist to keep Parse allocation-free on the happy path.
func TestParseValueAllocations(t *testing.T) {
	for _, c := range []struct {
		typ catalog.Type
		s   string
	}{{catalog.Size, "+50G"}, {catalog.Size, "100GiB"}, {catalog.Hostname, "cloud.example.org"}} {
		if n := testing.AllocsPerRun(100, func() { _, _ = parseValue(c.typ, c.s) }); n != 0 {
			t.Errorf("parseValue(%s, %q) allocates %.0f times", c.typ, c.s, n)
		}
	}
}
