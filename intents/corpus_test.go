package intents

import (
	"bufio"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eosbot/eos/catalog"
)

// corpus returns the realistic commands of testdata/corpus.txt, one per line.
func corpus(t testing.TB) []string {
	t.Helper()
	f, err := os.Open("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// The corpus parses with the test catalog and with the blueprints Eos ships, to the same
// intents: the test catalog is a faithful superset of the real one.
func TestCorpusParses(t *testing.T) {
	lines := corpus(t)
	if len(lines) < 50 {
		t.Errorf("corpus has %d commands, want at least 50", len(lines))
	}
	embedded, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatalf("loading the embedded catalog: %v", err)
	}
	test, shipped := NewParser(testCatalog(t)), NewParser(embedded)
	for _, line := range lines {
		a, err := test.Parse(line)
		if err != nil {
			t.Errorf("test catalog: Parse(%q): %v", line, err)
			continue
		}
		b, err := shipped.Parse(line)
		if err != nil {
			t.Errorf("embedded catalog: Parse(%q): %v", line, err)
			continue
		}
		if describe(a) != describe(b) {
			t.Errorf("Parse(%q) differs between catalogs:\n test: %s\n real: %s", line, describe(a), describe(b))
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, line := range corpus(f) {
		f.Add(line)
	}
	for _, s := range []string{"", "@eos", `"`, "--", "create \xff", "—", "create nextcloud --sso=\"a\\", "in in in", "with and"} {
		f.Add(s)
	}
	p := NewParser(testCatalog(f))
	f.Fuzz(func(t *testing.T, text string) {
		in, err := p.Parse(text)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) returned %T %v, want *Error", text, err, err)
			}
			if runes := utf8.RuneCountInString(text); e.Column < 1 || e.Column > runes+1 {
				t.Fatalf("Parse(%q): column %d outside 1..%d", text, e.Column, runes+1)
			}
			if e.Message == "" || e.Input != text {
				t.Fatalf("Parse(%q): error %+v lacks a message or the input", text, e)
			}
			_ = e.Caret()
			return
		}
		if in.Raw != text {
			t.Fatalf("Raw = %q, want %q", in.Raw, text)
		}
		again, err := p.Parse(in.Raw)
		if err != nil || !reflect.DeepEqual(in, again) {
			t.Fatalf("Parse(%q) is not deterministic: %+v then %+v, %v", text, in, again, err)
		}
	})
}

// BenchmarkParse parses the corpus; each op is one command, so ns/op and allocs/op are per
// command.
func BenchmarkParse(b *testing.B) {
	lines := corpus(b)
	p := NewParser(testCatalog(b))
	for _, line := range lines {
		if _, err := p.Parse(line); err != nil {
			b.Fatalf("Parse(%q): %v", line, err)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := p.Parse(lines[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(lines) {
			i = 0
		}
	}
}

// BenchmarkParseCommand measures a few commands on their own.
func BenchmarkParseCommand(b *testing.B) {
	p := NewParser(testCatalog(b))
	for _, c := range []struct{ name, line string }{
		{"create", "@eos create nextcloud --sso --domain cloud.example.org"},
		{"resize", "@eos resize lvm data-nextcloud +50G on node1"},
		{"deploy", "deploy grafana --port 3000 in staging"},
		{"help", "@eos help nextcloud"},
	} {
		line := c.line
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Parse(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
