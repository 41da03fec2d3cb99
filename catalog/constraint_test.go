package catalog

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// constraintManifest is a service with one flag block whose body is flag.
func constraintManifest(flag string) string {
	return "service \"limits\" {\n  description = \"constraints under test\"\n\n  flag \"x\" {\n" + flag +
		"    description = \"the flag under test\"\n  }\n\n  salt {\n    state = \"limits.sls\"\n  }\n}\n"
}

// Each bad constraint is one problem, at the line of the attribute that is wrong.
func TestLoadRefusesBadConstraints(t *testing.T) {
	cases := []struct{ name, flag, want string }{
		{"min above max", "    type = int\n    min  = 10\n    max  = 5\n",
			`6:12: flag "x" has min 10 above its max 5`},
		{"size min above max", "    type = size\n    min  = \"2T\"\n    max  = \"100G\"\n",
			`6:12: flag "x" has min 2T above its max 100G`},
		{"min on a string", "    type = string\n    min  = 1\n",
			`6:5: min is only for int, port and size flags; flag "x" is string`},
		{"max on a duration", "    type = duration\n    max  = \"1h\"\n",
			`6:5: max is only for int, port and size flags; flag "x" is duration`},
		{"pattern on an int", "    type    = int\n    pattern = \"[0-9]+\"\n",
			`6:5: pattern is only for string, hostname, path and list values; flag "x" is int`},
		{"pattern that does not compile", "    type    = string\n    pattern = \"a(b\"\n",
			`6:15: pattern of flag "x" is not an RE2 regexp: error parsing regexp: missing closing ): ` + "`a(b`"},
		{"pattern Go's RE2 refuses", "    type    = string\n    pattern = \"(?=a)b\"\n",
			`6:15: pattern of flag "x" is not an RE2 regexp: error parsing regexp: invalid or unsupported Perl syntax: ` + "`(?=`"},
		{"bound not of the type", "    type = size\n    min  = \"lots\"\n",
			`6:12: min of flag "x" does not fit its type size: "lots" is not a size: write a number and a unit (K, M, G, T, or GiB, GB, ...), like 100G or +50G`},
		{"relative bound", "    type = size\n    max  = \"+10G\"\n",
			`6:12: max of flag "x" must be an absolute size, like 10G, not +10G`},
		{"port bound outside ports", "    type = port\n    max  = 70000\n",
			`6:12: max of port flag "x" must be within 1–65535, not 70000`},
		{"default below min", "    type    = int\n    min     = 1\n    default = 0\n",
			`7:15: default for flag "x" breaks its own constraint: --x 0 is out of range: it must be at least 1`},
		{"default above a port's range", "    type    = port\n    default = 99999\n",
			`6:15: default for flag "x" breaks its own constraint: --x 99999 is out of range: ports are 1–65535`},
		{"default not matching the pattern", "    type    = hostname\n    pattern = \"[a-z]+\\\\.example\\\\.org\"\n    default = \"example.com\"\n",
			`7:15: default for flag "x" breaks its own constraint: --x "example.com" does not match the pattern [a-z]+\.example\.org (the whole value must)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeBlueprint(t, dir, "limits", map[string]string{"manifest.hcl": constraintManifest(tc.flag), "limits.sls": "{}\n"})
			_, err := LoadDir(filepath.Join(dir, "limits"))
			var diags Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("LoadDir: %v (%T), want Diagnostics", err, err)
			}
			want := filepath.Join(dir, "limits", "manifest.hcl") + ":" + tc.want
			if len(diags) != 1 || diags[0].String() != want {
				t.Errorf("got:\n%v\nwant:\n%s", err, want)
			}
		})
	}
}

func TestLoadReadsConstraints(t *testing.T) {
	dir := t.TempDir()
	flag := "    type    = size\n    min     = \"10G\"\n    max     = \"1T\"\n    default = \"20G\"\n"
	writeBlueprint(t, dir, "limits", map[string]string{"manifest.hcl": constraintManifest(flag), "limits.sls": "{}\n"})
	c, err := LoadDir(filepath.Join(dir, "limits"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Service("limits")
	f, _ := b.Flag("x")
	if f.Min == nil || f.Min.Bytes != 10<<30 || f.Max == nil || f.Max.Bytes != 1<<40 || f.Allowed() != "10G–1T" {
		t.Errorf("flag x = %+v, want a size within 10G–1T", f)
	}
}

func TestFlagCheck(t *testing.T) {
	size := func(s string) *Value { v, _ := ParseSize(s); return &v }
	num := func(t Type, n string) *Value { v, _ := ParseValue(t, n); return &v }
	port := &Flag{Name: "port", Type: Port}
	highPort := &Flag{Name: "port", Type: Port, Min: num(Port, "1024")}
	storage := &Flag{Name: "storage", Type: Size, Min: size("10G"), Max: size("4T")}
	workers := &Flag{Name: "workers", Type: Int, Max: num(Int, "32")}
	domain := &Flag{Name: "domain", Type: Hostname, Pattern: `[a-z0-9-]+\.example\.org`}
	sneaky := &Flag{Name: "vg", Type: String, Pattern: `a)|(b`} // never compiles, so never escapes its anchors
	cases := []struct {
		f    *Flag
		text string
		want string // "" is accepted
	}{
		{port, "3000", ""},
		{port, "1", ""},
		{port, "65535", ""},
		{port, "0", "--port 0 is out of range: ports are 1–65535"},
		{port, "99999", "--port 99999 is out of range: ports are 1–65535"},
		{highPort, "80", "--port 80 is out of range: it must be 1024–65535"},
		{storage, "100G", ""},
		{storage, "10G", ""},
		{storage, "4TiB", ""},
		{storage, "5G", "--storage 5G is out of range: it must be 10G–4T"},
		{storage, "4.5T", "--storage 4.5T is out of range: it must be 10G–4T"},
		{storage, "5000GB", "--storage 5000GB is out of range: it must be 10G–4T"}, // 5 TB is above 4 TiB
		{storage, "+5G", ""}, // grows by 5G: the result may be in range
		{storage, "+5T", "--storage +5T is out of range: it grows by more than 4T; it must be 10G–4T"},
		{workers, "32", ""},
		{workers, "33", "--workers 33 is out of range: it must be at most 32"},
		{domain, "cloud.example.org", ""},
		{domain, "Cloud.Example.Org", ""}, // hostnames are lowercased before the check
		{domain, "cloud.example.org.evil.com", `--domain "cloud.example.org.evil.com" does not match the pattern [a-z0-9-]+\.example\.org (the whole value must)`},
		{domain, "evil.com", `--domain "evil.com" does not match the pattern [a-z0-9-]+\.example\.org (the whole value must)`},
		{sneaky, "b", "--vg: the blueprint's pattern does not compile"},
	}
	for _, tc := range cases {
		v, err := ParseValue(tc.f.Type, tc.text)
		if err != nil {
			t.Fatalf("ParseValue(%s, %q): %v", tc.f.Type, tc.text, err)
		}
		err = tc.f.Check(v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("--%s %s: %v, want it accepted", tc.f.Name, tc.text, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("--%s %s: %v, want %s", tc.f.Name, tc.text, err, tc.want)
		}
	}
}

// A value out of range is refused by Render wherever it came from: given, kept from declared
// state (a constraint added after it was deployed), or declared for a deployed dependency.
func TestRenderRefusesValuesOutOfRange(t *testing.T) {
	c := loadEmbedded(t)
	gr := service(t, c, "grafana")
	_, err := gr.Render(Request{Flags: map[string]Value{"port": {Type: Int, Int: 99999, Text: "99999"}}})
	if want := "grafana: --port 99999 is out of range: ports are 1–65535"; err == nil || err.Error() != want {
		t.Errorf("given: %v, want %s", err, want)
	}

	declared := gr.DeclaredFlags(map[string]string{"port": "99999", "domain": "grafana.example.org"})
	if declared["port"].Int != 99999 {
		t.Fatalf("DeclaredFlags dropped the out-of-range port: %v", declared)
	}
	_, err = c.Resolve(gr, Request{Flags: declared})
	if want := "grafana: --port 99999 is out of range: ports are 1–65535"; err == nil || err.Error() != want {
		t.Errorf("declared: %v, want %s", err, want)
	}
	// An update that gives the flag replaces the stored value and goes through.
	declared["port"] = Value{Type: Port, Int: 3001, Text: "3001"}
	if _, err := c.Resolve(gr, Request{Flags: declared}); err != nil {
		t.Errorf("declared, then --port 3001: %v", err)
	}

	nc := service(t, c, "nextcloud")
	deployed := func(s string) (map[string]string, bool) {
		return map[string]string{"domain": "localhost"}, s == "authentik"
	}
	_, err = c.Resolve(nc, Request{Flags: map[string]Value{"sso": BoolValue(true)}, Deployed: deployed})
	want := `authentik: --domain "localhost" does not match the pattern [a-z0-9-]+(\.[a-z0-9-]+)+ (the whole value must) (brought in by nextcloud because --sso)`
	if err == nil || err.Error() != want {
		t.Errorf("deployed dependency: %v, want %s", err, want)
	}
	// Finding who needs a service still works with a stale value (destroy asks it).
	if _, err := gr.Requirements(Request{Flags: gr.DeclaredFlags(map[string]string{"port": "99999"})}); err != nil {
		t.Errorf("Requirements with a stale value: %v", err)
	}
}
