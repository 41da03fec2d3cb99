package discord

import (
	"strings"

	"github.com/eosbot/eos/adapters"
)

// Render turns doc into Discord markdown: a Heading becomes a bold line, a Table a code block
// aligned in columns (Discord has no tables), a List dashes, Code a fenced block, a Context a
// subtext line ("-# "). Blocks are separated by a blank line. doc.Attachment is not part of
// the rendering.
func Render(doc adapters.Doc) string {
	parts := make([]string, 0, len(doc.Blocks))
	for _, c := range chunks(doc) {
		parts = append(parts, c.String())
	}
	return strings.Join(parts, "\n\n")
}

// chunk is one block rendered as lines, in the shape split needs to continue it in another
// message: head opens the block (a code fence, a table's header) and is repeated in each
// message the block continues in; tail closes it (the closing fence).
type chunk struct {
	head []string
	body []string
	tail string
}

func (c chunk) String() string {
	lines := append(append([]string{}, c.head...), c.body...)
	if c.tail != "" {
		lines = append(lines, c.tail)
	}
	return strings.Join(lines, "\n")
}

// chunks renders the blocks of doc that have something to show.
func chunks(doc adapters.Doc) []chunk {
	out := make([]chunk, 0, len(doc.Blocks))
	for _, b := range doc.Blocks {
		if c, ok := renderBlock(b); ok {
			out = append(out, c)
		}
	}
	return out
}

func renderBlock(b adapters.Block) (chunk, bool) {
	switch v := b.(type) {
	case adapters.Heading:
		if s := oneLine(v.Text); s != "" {
			return chunk{body: []string{"**" + s + "**"}}, true
		}
	case adapters.Text:
		if s := strings.Trim(v.Text, "\n"); s != "" {
			return chunk{body: strings.Split(s, "\n")}, true
		}
	case adapters.Context:
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(v.Text), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, "-# "+l)
			}
		}
		return chunk{body: lines}, len(lines) > 0
	case adapters.Code:
		return codeChunk(v.Text), strings.TrimSpace(v.Text) != ""
	case adapters.List:
		var lines []string
		for _, it := range v.Items {
			for i, l := range strings.Split(strings.Trim(it, "\n"), "\n") {
				if i == 0 {
					lines = append(lines, "- "+l)
				} else {
					lines = append(lines, "  "+l)
				}
			}
		}
		return chunk{body: lines}, len(lines) > 0
	case adapters.Table:
		return tableChunk(v)
	}
	return chunk{}, false
}

// codeChunk fences text with a fence longer than any run of backticks inside it.
func codeChunk(text string) chunk {
	text = strings.Trim(text, "\n")
	f := fence(text)
	return chunk{head: []string{f}, body: strings.Split(text, "\n"), tail: f}
}

// tableChunk aligns t in a code block with adapters.PlainTable, a rule under the header.
// Cells are made one line each, so a row is always one line.
func tableChunk(t adapters.Table) (chunk, bool) {
	if len(t.Header) == 0 && len(t.Rows) == 0 {
		return chunk{}, false
	}
	clean := adapters.Table{Header: cells(t.Header), Rows: make([][]string, len(t.Rows))}
	for i, r := range t.Rows {
		clean.Rows[i] = cells(r)
	}
	lines := strings.Split(adapters.PlainTable(clean), "\n")
	width := 0
	for _, l := range lines {
		width = max(width, len([]rune(l)))
	}
	f := fence(strings.Join(lines, "\n"))
	return chunk{
		head: []string{f, lines[0], strings.Repeat("-", width)},
		body: lines[1:],
		tail: f,
	}, true
}

func cells(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = oneLine(c)
	}
	return out
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", "")), " ")
}

// fence is a code fence longer than any run of backticks in s.
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
	return strings.Repeat("`", max(3, longest+1))
}
