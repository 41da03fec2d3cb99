package intents

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eosbot/eos/catalog"
)

// Every refusal of a blueprint's constraint names the value's column (the caret goes under the
// value) and what is allowed.
func TestParseRefusesValuesOutsideConstraints(t *testing.T) {
	p := NewParser(testCatalog(t))
	tests := []struct {
		in  string
		msg string
		col int
	}{
		{"@eos create grafana --port 99999", "--port 99999 is out of range: ports are 1–65535", 28},
		{"create grafana --port=0", "--port 0 is out of range: ports are 1–65535", 23},
		{"update grafana --port -80", "--port -80 is out of range: ports are 1–65535", 23},
		{"plan grafana --port 65536 in staging", "--port 65536 is out of range: ports are 1–65535", 21},
		{"create jenkins --executors 0", "--executors 0 is out of range: it must be 1–32", 28},
		{"install jenkins --executors=33 --storage 100G", "--executors 33 is out of range: it must be 1–32", 29},
		{"create jenkins --storage 5G", "--storage 5G is out of range: it must be 10G–2T", 26},
		{"create jenkins --storage 3TiB", "--storage 3TiB is out of range: it must be 10G–2T", 26},
		{"create nextcloud --storage 9999M --sso", "--storage 9999M is out of range: it must be 10G–16T", 28},
		{"update nextcloud --storage +17T", "--storage +17T is out of range: it grows by more than 16T; it must be 10G–16T", 28},
		{"create nextcloud --domain localhost", `--domain "localhost" does not match the pattern [a-z0-9-]+(\.[a-z0-9-]+)+ (the whole value must)`, 27},
		{"create grafana --domain=intranet", `--domain "intranet" does not match the pattern [a-z0-9-]+(\.[a-z0-9-]+)+ (the whole value must)`, 25},
		{"resize lvm data +5G --vg -vg0", `--vg "-vg0" does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`, 26},
		{"resize lvm ../../../../../etc/cron.d/evil +1G", `NAME "../../../../../etc/cron.d/evil" does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`, 12},
		{"resize lvm data +1G --vg ..", `--vg ".." does not match the pattern [A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126} (the whole value must)`, 26},
		{"create 🚀 grafana --port 99999", `unknown service "🚀"; services: authentik, grafana, jenkins, nextcloud`, 8}, // the first mistake wins
		{"create jenkins --domain ci.example.org --storage 10M", "--storage 10M is out of range: it must be 10G–2T", 50},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in, err := p.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %s, want a refusal", tt.in, describe(in))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) error %T %v, want *Error", tt.in, err, err)
			}
			if e.Message != tt.msg || e.Column != tt.col {
				t.Errorf("Parse(%q)\n got: %q col %d\nwant: %q col %d", tt.in, e.Message, e.Column, tt.msg, tt.col)
			}
		})
	}
}

// Values within the constraints, at their edges, and relative sizes that may end in range.
func TestParseAcceptsValuesWithinConstraints(t *testing.T) {
	p := NewParser(testCatalog(t))
	for _, in := range []string{
		"create grafana --port 1", "create grafana --port 65535", "create grafana --port=8080",
		"create jenkins --executors 1 --storage 10G", "create jenkins --executors 32 --storage 2T",
		"update nextcloud --storage +50G", "update nextcloud --storage +16T",
		"create nextcloud --domain Cloud.Example.ORG", "resize lvm data +5G --vg vg_data.1",
	} {
		if _, err := p.Parse(in); err != nil {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

// The hidden-input check: for every bounded flag of the test catalog, a value just outside
// each bound is refused with the caret under the value and the flag's range in the message.
func TestEveryConstraintRefusalNamesColumnAndRange(t *testing.T) {
	cat := testCatalog(t)
	p := NewParser(cat)
	checked := 0
	for _, bp := range cat.Services() {
		for i := range bp.Flags {
			f := &bp.Flags[i]
			for _, bad := range outside(f) {
				prefix := "create " + bp.Name + " --" + f.Name + " "
				in := prefix + bad
				_, err := p.Parse(in)
				var e *Error
				if !errors.As(err, &e) {
					t.Errorf("Parse(%q) = %v, want a refusal", in, err)
					continue
				}
				checked++
				want := f.Allowed()
				if f.Pattern != "" {
					want = f.Pattern
				}
				if e.Column != utf8.RuneCountInString(prefix)+1 || !strings.Contains(e.Message, want) || !strings.Contains(e.Message, "--"+f.Name) {
					t.Errorf("Parse(%q): %q at column %d, want the column of %q and a message naming --%s and %s", in, e.Message, e.Column, bad, f.Name, want)
				}
				if caret := e.Caret(); !strings.HasSuffix(caret, strings.Repeat(" ", len(prefix))+"^ column "+itoa(int64(e.Column))) {
					t.Errorf("Parse(%q): caret not under the value:\n%s", in, caret)
				}
			}
		}
	}
	if checked < 8 {
		t.Errorf("checked %d refusals; the test catalog should have more constrained flags", checked)
	}
}

// outside gives values of f's type that break its constraints: one below its lower bound, one
// above its upper bound, one its pattern refuses.
func outside(f *catalog.Flag) []string {
	var out []string
	switch f.Type {
	case catalog.Int, catalog.Port:
		if f.Type == catalog.Port || f.Min != nil {
			lo := int64(catalog.MinPort)
			if f.Min != nil {
				lo = f.Min.Int
			}
			out = append(out, itoa(lo-1))
		}
		if f.Type == catalog.Port || f.Max != nil {
			hi := int64(catalog.MaxPort)
			if f.Max != nil {
				hi = f.Max.Int
			}
			out = append(out, itoa(hi+1))
		}
	case catalog.Size:
		if f.Min != nil && f.Min.Bytes > 1024 {
			out = append(out, itoa(f.Min.Bytes/1024-1)+"K")
		}
		if f.Max != nil {
			out = append(out, itoa(f.Max.Bytes/1024+1)+"K", "+"+itoa(f.Max.Bytes/1024+1)+"K")
		}
	case catalog.String, catalog.Hostname:
		if f.Pattern != "" {
			out = append(out, "-x")
			if f.Type == catalog.Hostname {
				out[len(out)-1] = "localhost"
			}
		}
	}
	return out
}

// attacks are values an attacker types where an operation expects a name (see the catalog's
// bounded_test.go): each is refused as the argument's, with the caret under it, by the shipped
// resize lvm and by the test catalog's.
var attacks = []string{
	"../../../../../etc/cron.d/evil", "..", ".", "data/nextcloud", "/etc/passwd", "data\x00nextcloud",
	"data\nnextcloud", "d\u0430ta", "data\u202egpj.exe", "data\u200bx", "-rf", "--resizefs",
	strings.Repeat("a", 300), "$(reboot)", "`reboot`", "data;reboot", "data|sh", "data nextcloud",
	"{{ salt.cmd.run('id') }}", "x: y", "",
}

func TestParseRefusesOperationArgumentsThatLeaveTheirDirectory(t *testing.T) {
	embedded, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	for _, cat := range []struct {
		name string
		p    *Parser
	}{{"shipped", NewParser(embedded)}, {"test", NewParser(testCatalog(t))}} {
		for _, value := range attacks {
			quoted := "'" + value + "'"
			if strings.Contains(value, "'") {
				quoted = strconv.Quote(value)
			}
			for _, in := range []string{"@eos resize lvm " + quoted + " +1G", "@eos resize lvm data +1G --vg " + quoted} {
				got, err := cat.p.Parse(in)
				var e *Error
				if !errors.As(err, &e) {
					t.Errorf("%s: Parse(%q) = %s, want a refusal", cat.name, in, describe(got))
					continue
				}
				name, at := "NAME", len("@eos resize lvm ")
				if strings.Contains(in, "--vg") {
					name, at = "--vg", len("@eos resize lvm data +1G --vg ")
				}
				if !strings.HasPrefix(e.Message, name) || e.Column != utf8.RuneCountInString(in[:at])+1 {
					t.Errorf("%s: Parse(%q): %q at column %d, want a message naming %s at column %d", cat.name, in, e.Message, e.Column, name, utf8.RuneCountInString(in[:at])+1)
				}
			}
		}
	}
}

// An enum argument takes its values in any case, as an enum flag does, and refuses others with
// a suggestion.
func TestParseEnumArgument(t *testing.T) {
	cat := catalog.New(&catalog.Blueprint{
		Kind: catalog.KindOperation, Verb: "restart", Name: "pool", Description: "restart a pool",
		Args: []catalog.Arg{{Name: "mode", Type: catalog.Enum, Values: []string{"graceful", "now"}, Description: "how"}},
	})
	p := NewParser(cat)
	in, err := p.Parse("restart pool Graceful")
	if err != nil || len(in.Args) != 1 || in.Args[0].Text != "graceful" {
		t.Fatalf("Parse = %s, %v; want MODE graceful", describe(in), err)
	}
	_, err = p.Parse("restart pool gracefull")
	var e *Error
	if !errors.As(err, &e) || e.Message != `bad value "gracefull" for MODE` || e.Suggestion != "graceful" || e.Column != 14 {
		t.Errorf("got %#v, want a refusal naming MODE suggesting graceful at column 14", err)
	}
}
