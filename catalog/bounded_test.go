package catalog

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// attacks are values an attacker types where a blueprint expects a name: each tries to leave
// the directory a layer builds a path in, to reach a shell or an option parser, or to look like
// something else in the preview.
var attacks = []struct{ name, value string }{
	{"parent directories", "../../../../../etc/cron.d/evil"},
	{"dot-dot", ".."},
	{"dot", "."},
	{"slash", "data/nextcloud"},
	{"absolute", "/etc/passwd"},
	{"NUL", "data\x00nextcloud"},
	{"newline", "data\nnextcloud"},
	{"carriage return", "data\rx"},
	{"cyrillic a", "d\u0430ta"},                     // looks like "data"
	{"right-to-left override", "data\u202egpj.exe"}, // reads backwards in a preview
	{"zero-width space", "data\u200bnextcloud"},
	{"leading dash", "-rf"},
	{"option", "--resizefs"},
	{"very long", strings.Repeat("a", 300)},
	{"command substitution", "$(reboot)"},
	{"backticks", "`reboot`"},
	{"semicolon", "data;reboot"},
	{"pipe", "data|sh"},
	{"space", "data nextcloud"},
	{"quote", `data"x`},
	{"jinja", "{{ salt.cmd.run('id') }}"},
	{"yaml", "x: y"},
	{"empty", ""},
	{"invalid UTF-8", "data\xff"},
}

// An operation's arguments and string flags cannot carry a path, a control character or an
// option into the layers: the shipped resize lvm refuses each attack, naming the argument, and
// renders nothing.
func TestRenderRefusesOperationValuesThatLeaveTheirDirectory(t *testing.T) {
	c := loadEmbedded(t)
	lvm, ok := c.Operation("resize", "lvm")
	if !ok {
		t.Fatal("no resize lvm")
	}
	size, _ := ParseSize("+1G")
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			r, err := lvm.Render(Request{Args: []Value{StringValue(String, a.value), size}})
			var re *RequestError
			if !errors.As(err, &re) || !strings.HasPrefix(re.Message, "NAME") {
				t.Errorf("NAME %q: rendered %v, err %v; want a RequestError naming NAME", a.value, r != nil, err)
			}
			r, err = lvm.Render(Request{Args: []Value{StringValue(String, "data"), size}, Flags: map[string]Value{"vg": StringValue(String, a.value)}})
			if !errors.As(err, &re) || !strings.HasPrefix(re.Message, "--vg") {
				t.Errorf("--vg %q: rendered %v, err %v; want a RequestError naming --vg", a.value, r != nil, err)
			}
		})
	}
	for _, good := range []string{"data", "data-nextcloud", "data_1", "lv+x", "a.b", "A9", strings.Repeat("a", 127)} {
		if _, err := lvm.Render(Request{Args: []Value{StringValue(String, good), size}, Flags: map[string]Value{"vg": StringValue(String, good)}}); err != nil {
			t.Errorf("%q: %v, want it accepted", good, err)
		}
	}
}

// The refusal says which argument, the value (control characters and lookalikes spelt out,
// a long value cut) and what the argument accepts.
func TestArgumentRefusalSaysWhatIsAccepted(t *testing.T) {
	c := loadEmbedded(t)
	lvm, _ := c.Operation("resize", "lvm")
	size, _ := ParseSize("+1G")
	cases := []struct{ value, want string }{
		{"../../../../../etc/cron.d/evil", `resize lvm: NAME "../../../../../etc/cron.d/evil" does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`},
		{"d\u0430ta", `resize lvm: NAME "d\u0430ta" does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`},
		{"a\x00b", `resize lvm: NAME: "a\x00b" holds a control or invisible character (U+0000): type printed text only`},
		{strings.Repeat("x", 200), `resize lvm: NAME "` + strings.Repeat("x", 48) + `…" (200 bytes) does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`},
	}
	for _, tc := range cases {
		_, err := lvm.Render(Request{Args: []Value{StringValue(String, tc.value), size}})
		if err == nil || err.Error() != tc.want {
			t.Errorf("NAME %q:\n got: %v\nwant: %s", tc.value, err, tc.want)
		}
	}
}

func TestParseValueRefusesControlCharactersAndUncleanPaths(t *testing.T) {
	cases := []struct {
		t    Type
		text string
		want string // "" is accepted
	}{
		{String, "data", ""},
		{String, "naïve café", ""}, // printed text in any script is a string; a pattern narrows it
		{String, "a\x00b", `"a\x00b" holds a control or invisible character (U+0000): type printed text only`},
		{String, "a\nb", `"a\nb" holds a control or invisible character (U+000A): type printed text only`},
		{String, "a\u202eb", `"a\u202eb" holds a control or invisible character (U+202E): type printed text only`},
		{String, "a\xffb", `"a\xffb" is not valid UTF-8`},
		{List, "node1,no\nde2", `"node1,no\nde2" holds a control or invisible character (U+000A): type printed text only`},
		{Path, "/srv/data", ""},
		{Path, "/", ""},
		{Path, "/srv/../etc/cron.d", `"/srv/../etc/cron.d" is not a clean absolute path: write it as /etc/cron.d (no . or .. parts, no double or trailing slash)`},
		{Path, "/srv//data", `"/srv//data" is not a clean absolute path: write it as /srv/data (no . or .. parts, no double or trailing slash)`},
		{Path, "/srv/data/", `"/srv/data/" is not a clean absolute path: write it as /srv/data (no . or .. parts, no double or trailing slash)`},
		{Path, "/srv/a\tb", `"/srv/a\tb" holds a control or invisible character (U+0009): type printed text only`},
		{Path, "srv", `"srv" is not an absolute path: start it with /`},
	}
	for _, tc := range cases {
		_, err := ParseValue(tc.t, tc.text)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("ParseValue(%s, %q): %v, want it accepted", tc.t, tc.text, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want):
			t.Errorf("ParseValue(%s, %q):\n got: %v\nwant: %s", tc.t, tc.text, err, tc.want)
		}
	}
}

// opManifest is an operation with one argument block whose body is arg.
func opManifest(arg string) string {
	return "operation \"sweep\" \"dir\" {\n  description = \"arguments under test\"\n\n  arg \"x\" {\n" + arg +
		"    description = \"the argument under test\"\n  }\n\n  salt {\n    state = \"sweep.sls\"\n    pillar = { x = arg.x }\n  }\n}\n"
}

// An argument takes the constraints a flag takes (values, min, max, pattern), checked the same
// way, and is refused the same mistakes.
func TestLoadReadsArgumentConstraints(t *testing.T) {
	load := func(t *testing.T, arg string) (*Blueprint, error) {
		dir := t.TempDir()
		writeBlueprint(t, dir, "sweep", map[string]string{"manifest.hcl": opManifest(arg), "sweep.sls": "{}\n"})
		c, err := LoadDir(filepath.Join(dir, "sweep"))
		if err != nil {
			return nil, err
		}
		b, _ := c.Operation("sweep", "dir")
		return b, nil
	}
	b, err := load(t, "    type    = string\n    pattern = \"[a-z]+\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Args[0].Check(StringValue(String, "../x")); err == nil || err.Error() != `X "../x" does not match the pattern [a-z]+ (the whole value must)` {
		t.Errorf("pattern: %v", err)
	}
	b, err = load(t, "    type   = enum\n    values = [\"fast\", \"slow\"]\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Args[0].Check(StringValue(Enum, "medium")); err == nil || err.Error() != `X "medium" is not one of fast, slow` {
		t.Errorf("enum: %v", err)
	}
	if _, err := b.Render(Request{Args: []Value{StringValue(String, "medium")}}); err == nil || err.Error() != `sweep dir: X: "medium" is not one of fast, slow` {
		t.Errorf("enum render: %v", err)
	}
	b, err = load(t, "    type = int\n    min  = 1\n    max  = 9\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Args[0].Check(Value{Type: Int, Int: 10, Text: "10"}); err == nil || err.Error() != "X 10 is out of range: it must be 1–9" {
		t.Errorf("max: %v", err)
	}
	for _, bad := range []struct{ arg, want string }{
		{"    type    = size\n    pattern = \"[0-9]+G\"\n", `6:5: pattern is only for string, hostname, path and list values; argument "x" is size`},
		{"    type = enum\n", `4:3: enum argument "x" needs values = [...], the words it accepts`},
	} {
		_, err := load(t, bad.arg)
		var diags Diagnostics
		if !errors.As(err, &diags) || len(diags) != 1 || !strings.HasSuffix(diags[0].String(), "manifest.hcl:"+bad.want) {
			t.Errorf("got %v, want %s", err, bad.want)
		}
	}
}

// Check refuses every string, path and list argument or flag without a pattern, whatever its
// type, and never a secret flag (never typed) or an enum; a pattern the example values do not
// match is no problem, since Check builds a value from it.
func TestCheckRefusesUnboundedValues(t *testing.T) {
	manifest := `operation "sweep" "dir" {
  description = "values with and without bounds"

  arg "code" {
    type        = string
    pattern     = "[0-9]{3}-[A-Z]+"
    description = "a code the example word does not match"
  }
  arg "where" {
    type        = path
    description = "anywhere"
  }
  flag "items" {
    type        = list
    description = "anything"
  }
  flag "owner" {
    type        = string
    description = "anyone"
  }
  flag "token" {
    type        = string
    secret      = true
    description = "generated, never typed"
  }
  flag "mode" {
    type        = enum
    values      = ["fast", "slow"]
    description = "bounded by its values"
  }

  salt {
    state  = "sweep.sls"
    pillar = { code = arg.code, where = arg.where, items = flag.items, owner = flag.owner, mode = flag.mode }
  }
}
`
	dir := t.TempDir()
	writeBlueprint(t, dir, "sweep", map[string]string{"manifest.hcl": manifest, "sweep.sls": "sweep: {}\n"})
	diags := Check(t.Context(), []string{filepath.Join(dir, "sweep")}, CheckOptions{Terraform: "unused: no .tf files"})
	file := filepath.Join(dir, "sweep", "manifest.hcl")
	const bound = `; bound it with pattern = "..." (an RE2 regexp the whole value must match, like "[a-z0-9][a-z0-9-]*") or make it an enum with values = [...]`
	want := file + `:9:3: argument "where" is a path with no pattern: any absolute path typed in chat reaches the layers, /etc included` + bound + "\n" +
		file + `:13:3: flag "items" is a list with no pattern: any item typed in chat reaches the layers, ../../etc included` + bound + "\n" +
		file + `:17:3: flag "owner" is a string with no pattern: anything typed in chat reaches the layers, ../../etc included` + bound
	if diags.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", diags, want)
	}
}

func TestPatternExample(t *testing.T) {
	for _, p := range []string{
		`[A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126}`, `[0-9]{3}-[A-Z]+`, `[a-z0-9-]+(\.[a-z0-9-]+)+`,
		`(prod|staging)-[a-z]+`, `/srv/[a-z]+`, `\d+x?`, `.+`, `v[0-9]+\.[0-9]+`,
	} {
		got, ok := patternExample(p)
		re, _ := compilePattern(p)
		if !ok || !re.MatchString(got) {
			t.Errorf("patternExample(%s) = %q, %v: does not match", p, got, ok)
		}
	}
}

// Every text argument and flag of every shipped blueprint refuses every attack, whatever its
// pattern: a blueprint added later is held to the same list.
func TestShippedBlueprintsRefuseAttacks(t *testing.T) {
	c := loadEmbedded(t)
	bps := c.Services()
	for _, verb := range c.OperationVerbs() {
		bps = append(bps, c.Operations(verb)...)
	}
	checked := 0
	for _, b := range bps {
		base := exampleRequests(c, b)[0].req
		if _, err := b.Render(base); err != nil {
			t.Fatalf("%s: its example does not render: %v", b.label(), err)
		}
		for i, a := range b.Args {
			if a.Type != String && a.Type != Path && a.Type != List {
				continue
			}
			for _, at := range attacks {
				req := base
				req.Args = append([]Value(nil), base.Args...)
				req.Args[i] = StringValue(a.Type, at.value)
				if _, err := b.Render(req); err == nil {
					t.Errorf("%s: %s %q (%s) was accepted", b.label(), strings.ToUpper(a.Name), at.value, at.name)
				}
				checked++
			}
		}
		for _, f := range b.Flags {
			if f.Secret || f.Type != String && f.Type != Path && f.Type != List && f.Type != Hostname {
				continue
			}
			for _, at := range attacks {
				req := base
				req.Flags = map[string]Value{f.Name: StringValue(f.Type, at.value)}
				if _, err := b.Render(req); err == nil {
					t.Errorf("%s: --%s %q (%s) was accepted", b.label(), f.Name, at.value, at.name)
				}
				checked++
			}
		}
	}
	if checked < 3*len(attacks) {
		t.Errorf("checked %d values; the shipped blueprints should have more text flags and arguments", checked)
	}
}
