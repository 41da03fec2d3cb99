package mattermost

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
)

func TestSplitLongTableRepeatsHeader(t *testing.T) {
	table := adapters.Table{Header: []string{"layer", "resource"}}
	for i := range 500 {
		table.Rows = append(table.Rows, []string{"Terraform", fmt.Sprintf("volume-%03d ✅", i)})
	}
	text := Render(adapters.NewDoc(adapters.Heading{Text: "Plan"}, table, adapters.Context{Text: "end"}))
	const limit = 1000
	pieces := split(text, limit)
	if len(pieces) < 10 {
		t.Fatalf("split into %d pieces, want at least 10", len(pieces))
	}
	var rows []string
	for i, p := range pieces {
		if n := utf8.RuneCountInString(p); n > limit {
			t.Errorf("piece %d has %d runes, limit %d", i, n, limit)
		}
		lines := strings.Split(p, "\n")
		for j, l := range lines {
			if !strings.HasPrefix(l, "| Terraform") {
				continue
			}
			// Every row sits under a header and separator in its own piece.
			if j < 2 || lines[j-2] != "| layer | resource |" && !strings.HasPrefix(lines[j-1], "| Terraform") {
				t.Errorf("piece %d: row %q has no header above it", i, l)
			}
			rows = append(rows, l)
		}
	}
	if len(rows) != 500 {
		t.Fatalf("pieces hold %d rows, want 500", len(rows))
	}
	for i, r := range rows {
		if want := fmt.Sprintf("| Terraform | volume-%03d ✅ |", i); r != want {
			t.Fatalf("row %d = %q, want %q (rows lost or reordered)", i, r, want)
		}
	}
	if !strings.HasPrefix(pieces[0], "#### Plan") || !strings.HasSuffix(pieces[len(pieces)-1], "_end_") {
		t.Errorf("heading or footer misplaced: first %.20q, last ends %q", pieces[0], pieces[len(pieces)-1][len(pieces[len(pieces)-1])-10:])
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string
	}{
		{"fits", "a\nb", 10, []string{"a\nb"}},
		{"at line boundaries", "aaa\nbbb\nccc", 7, []string{"aaa\nbbb", "ccc"}},
		{"blank lines between pieces dropped", "aaa\n\nbbb", 4, []string{"aaa", "bbb"}},
		{"code block closed and reopened", "```\n111\n222\n333\n```", 11, []string{"```\n111\n```", "```\n222\n```", "```\n333\n```"}},
		{"table header repeated", "| h |\n|---|\n| 1 |\n| 2 |\n\nafter", 17, []string{"| h |\n|---|\n| 1 |", "| h |\n|---|\n| 2 |", "after"}},
		{"overlong line cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"multibyte runes counted as one", "ééééé\nüü", 5, []string{"ééééé", "üü"}},
		{"a table header never ends a piece alone", "aaaa\n| h |\n|---|\n| 1 |", 17, []string{"aaaa", "| h |\n|---|\n| 1 |"}},
		{"a code fence never ends a piece alone", "aaaa\n```\n111\n```", 14, []string{"aaaa", "```\n111\n```"}},
		{"an unclosed code block is closed where it is cut", "```\n111\n222", 11, []string{"```\n111\n```", "```\n222\n```"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := split(tt.text, tt.limit)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("split(%q, %d) =\n%q\nwant\n%q", tt.text, tt.limit, got, tt.want)
			}
		})
	}
}

func TestSummaryKeepsWholeBlocks(t *testing.T) {
	big := adapters.Table{Header: []string{"h"}, Rows: [][]string{{strings.Repeat("x", 100)}}}
	doc := adapters.NewDoc(adapters.Heading{Text: "Plan"}, adapters.Text{Text: "summary"}, big, adapters.Context{Text: "tail"})
	tests := []struct {
		limit int
		want  string
	}{
		{50, "#### Plan\n\nsummary"},
		{500, Render(doc)},
		{8, "#### Pl…"},
	}
	for _, tt := range tests {
		if got := summary(doc, tt.limit); got != tt.want {
			t.Errorf("summary(limit %d) = %q, want %q", tt.limit, got, tt.want)
		}
	}
}
