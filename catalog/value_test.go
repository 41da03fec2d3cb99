package catalog

import "testing"

func TestParseSizeRefusesNonsense(t *testing.T) {
	for _, s := range []string{"NaNG", "InfT", "1e3G", "0G", "0.0000000001K", "99999999999999T", "G", "+G", "-5G", "0x10G", "1_000G"} {
		if v, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) = %+v, want an error", s, v)
		}
	}
	for s, want := range map[string]int64{"100G": 100 << 30, "+50G": 50 << 30, "1.5TiB": 3 << 39, "500GB": 500e9, "512m": 512 << 20} {
		v, err := ParseSize(s)
		if err != nil || v.Bytes != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, v.Bytes, err, want)
		}
	}
}
