package mattermost

import (
	"strings"

	"github.com/eosbot/eos/adapters"
)

// Render turns doc into Mattermost markdown: a Heading becomes a level-4 heading, a Table a
// markdown table, a List dashes, Code a fenced block, a Context a final line in italics.
// Blocks are separated by a blank line. doc.Attachment is not part of the rendering.
func Render(doc adapters.Doc) string {
	parts := make([]string, 0, len(doc.Blocks))
	for _, b := range doc.Blocks {
		if s := renderBlock(b); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

func renderBlock(b adapters.Block) string {
	switch v := b.(type) {
	case adapters.Heading:
		return "#### " + oneLine(v.Text)
	case adapters.Text:
		return v.Text
	case adapters.Context:
		return italic(v.Text)
	case adapters.Code:
		return fence(v.Text)
	case adapters.List:
		items := make([]string, len(v.Items))
		for i, it := range v.Items {
			items[i] = "- " + strings.ReplaceAll(it, "\n", "\n  ")
		}
		return strings.Join(items, "\n")
	case adapters.Table:
		return renderTable(v)
	}
	return ""
}

// renderTable writes a markdown table; every row gets as many cells as the widest row.
func renderTable(t adapters.Table) string {
	width := len(t.Header)
	for _, r := range t.Rows {
		width = max(width, len(r))
	}
	if width == 0 {
		return ""
	}
	var b strings.Builder
	row := func(cells []string) {
		b.WriteByte('|')
		for i := range width {
			c := ""
			if i < len(cells) {
				c = cell(cells[i])
			}
			b.WriteString(" " + c + " |")
		}
	}
	row(t.Header)
	b.WriteString("\n|" + strings.Repeat("---|", width))
	for _, r := range t.Rows {
		b.WriteByte('\n')
		row(r)
	}
	return b.String()
}

// cell makes s safe inside a table cell: one line, pipes escaped.
func cell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", "")), " ")
}

// italic wraps s in underscores unless emphasis markers inside it would break the markup, in
// which case it stays plain.
func italic(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s, "_*`\n") {
		return s
	}
	return "_" + s + "_"
}

// fence wraps s in a code fence longer than any run of backticks inside it.
func fence(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", max(3, longest+1))
	return f + "\n" + strings.TrimRight(s, "\n") + "\n" + f
}
