package adapters

import "strings"

// Doc is a platform-neutral rich message: previews, progress posts, digests and replies are
// built as a Doc by the engine and rendered by each adapter in its platform's format.
type Doc struct {
	Blocks []Block
	// Attachment, when set, is a longer text (the full per-resource plan) that does not belong
	// in the post itself. Adapters attach it as a file or post it as thread replies.
	Attachment *Attachment
}

// Attachment is a named text file that goes with a post.
type Attachment struct {
	Name string
	Text string
}

// Block is one part of a Doc: Heading, Text, Table, List, Code or Context.
type Block interface{ isBlock() }

// Heading is the first line of a post: what it is about ("Plan 7f3a9c21 · create nextcloud").
type Heading struct{ Text string }

// Text is a paragraph of plain text; lines are kept.
type Text struct{ Text string }

// Table is a small table with a header row.
type Table struct {
	Header []string
	Rows   [][]string
}

// List is a bulleted list.
type List struct{ Items []string }

// Code is preformatted text shown in a fixed-width font (a parse error with its caret).
type Code struct{ Text string }

// Context is a small footer line: who must do what next, where to look.
type Context struct{ Text string }

func (Heading) isBlock() {}
func (Text) isBlock()    {}
func (Table) isBlock()   {}
func (List) isBlock()    {}
func (Code) isBlock()    {}
func (Context) isBlock() {}

// NewDoc builds a Doc from blocks.
func NewDoc(blocks ...Block) Doc { return Doc{Blocks: blocks} }

// Plain renders d as plain text, one block after the other: the console's format and the
// fallback for notifications. Tables are aligned in columns separated by " | ".
func (d Doc) Plain() string {
	var b strings.Builder
	for i, blk := range d.Blocks {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch v := blk.(type) {
		case Heading:
			b.WriteString(v.Text)
		case Text:
			b.WriteString(v.Text)
		case Context:
			b.WriteString(v.Text)
		case Code:
			b.WriteString(indent(v.Text, "  "))
		case List:
			for j, it := range v.Items {
				if j > 0 {
					b.WriteByte('\n')
				}
				b.WriteString("• " + it)
			}
		case Table:
			b.WriteString(PlainTable(v))
		}
	}
	return b.String()
}

// PlainTable aligns a table in columns, measuring width in runes.
func PlainTable(t Table) string {
	widths := make([]int, len(t.Header))
	rows := append([][]string{t.Header}, t.Rows...)
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) && runeLen(c) > widths[i] {
				widths[i] = runeLen(c)
			}
		}
	}
	var b strings.Builder
	for n, r := range rows {
		if n > 0 {
			b.WriteByte('\n')
		}
		var line strings.Builder
		for i, c := range r {
			if i > 0 {
				line.WriteString(" | ")
			}
			line.WriteString(c)
			if i < len(r)-1 && i < len(widths) {
				line.WriteString(strings.Repeat(" ", widths[i]-runeLen(c)))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	return b.String()
}

func runeLen(s string) int { return len([]rune(s)) }

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
