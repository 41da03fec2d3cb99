package intents

import (
	"strings"
	"testing"
)

func TestCaret(t *testing.T) {
	long := strings.Repeat("x", 100) + " create"
	tests := []struct {
		name  string
		input string
		col   int
		want  string
	}{
		{"brief example", "create nextclod --sso", 8,
			"create nextclod --sso\n       ^ column 8"},
		{"first column", "craete", 1, "craete\n^ column 1"},
		{"after the end", "create", 7, "create\n      ^ column 7"},
		{"empty input", "", 1, "\n^ column 1"},
		{"newline and tab drawn as spaces", "a\nb\tc", 5, "a b c\n    ^ column 5"},
		{"wide runes take two cells", "🚀 nextclod", 3, "🚀 nextclod\n   ^ column 3"},
		{"bidi override neutralised", "\u202edelete", 2, "\ufffddelete\n ^ column 2"},
		{"invalid byte", "a\xffb", 3, "a\ufffdb\n  ^ column 3"},
		{"long input is windowed", long, 102,
			"…" + strings.Repeat("x", 65) + " create\n" + strings.Repeat(" ", 67) + "^ column 102"},
		{"long input, early column", long, 2,
			strings.Repeat("x", 72) + "…\n ^ column 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := (&Error{Input: tt.input, Column: tt.col}).Caret()
			if got != tt.want {
				t.Errorf("Caret()\n got: %q\nwant: %q", got, tt.want)
			}
		})
	}
}

func TestCaretFromParse(t *testing.T) {
	_, err := NewParser(testCatalog(t)).Parse("@eos create nextclod --sso")
	e := err.(*Error)
	want := "@eos create nextclod --sso\n            ^ column 13"
	if got := e.Caret(); got != want {
		t.Errorf("Caret()\n got: %q\nwant: %q", got, want)
	}
}

func TestSuggest(t *testing.T) {
	cands := []string{"authentik", "create", "destroy", "grafana", "jenkins", "nextcloud", "status", "add"}
	tests := []struct{ word, want string }{
		{"nextclod", "nextcloud"},
		{"NextClod", "nextcloud"},
		{"craete", "create"},    // transposition
		{"graphana", "grafana"}, // two edits in a long word
		{"jenkisn", "jenkins"},
		{"next", "nextcloud"}, // unique prefix
		{"ne", ""},            // prefix too short
		{"ad", "add"},         // one edit in a short word
		{"xyz", ""},           // nothing close
		{"statsu", "status"},
		{"destory", "destroy"},
		{"nextcloud", ""}, // an exact word is not a suggestion of itself
		{"", ""},
		{"authentikxyz", ""}, // three edits
	}
	for _, tt := range tests {
		if got := suggest(tt.word, cands); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	if got := suggest("st", []string{"status", "staging"}); got != "" {
		t.Errorf("ambiguous prefix suggested %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3},
		{"ca", "ac", 1}, {"craete", "create", 1}, {"🚀x", "x🚀", 1}, {"é", "e", 1},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
