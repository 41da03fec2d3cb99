package mattermost

import (
	"strings"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
)

// summary renders the leading blocks of doc that fit in limit runes together, whole: a table
// or list is either in the summary or left for the attachment, never cut. Only a first block
// longer than limit on its own is shortened.
func summary(doc adapters.Doc, limit int) string {
	var b strings.Builder
	n := 0
	for _, blk := range doc.Blocks {
		s := renderBlock(blk)
		if s == "" {
			continue
		}
		sep := 0
		if n > 0 {
			sep = 2
		}
		size := utf8.RuneCountInString(s)
		if n+sep+size > limit {
			if n == 0 {
				return cutRunes(s, limit-1) + "…"
			}
			break
		}
		if sep > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
		n += sep + size
	}
	return b.String()
}

// split cuts markdown into pieces of at most limit runes with the adapters' packer, at line
// boundaries. A table cut in two repeats its header row in the next piece, and a code block
// cut in two is closed and reopened, so every piece renders on its own. Only a single line
// longer than a piece is cut inside.
func split(text string, limit int) []string {
	return adapters.Packing{Limit: limit, Length: adapters.Runes, Trim: true}.Pack(markdownChunks(text))
}

// markdownChunks takes markdown apart into the chunks the packer continues from one piece
// to the next: a code block (its fences the head and tail), a table (its header and
// separator rows the head), and the lines between them.
func markdownChunks(text string) []adapters.Chunk {
	var out []adapters.Chunk
	units := tableUnits(strings.Split(text, "\n"))
	for i := 0; i < len(units); {
		u := units[i]
		c := adapters.Chunk{Head: []string{u}}
		i++
		switch {
		case fenceLen(u) >= 3:
			for ; i < len(units) && !isClosingFence(units[i], u); i++ {
				c.Body = append(c.Body, units[i])
			}
			c.Tail = strings.TrimLeft(u, " ")[:fenceLen(u)] // what closes a piece it is cut in
			if i < len(units) {
				c.Tail = units[i]
				i++
			}
		case isTableHead(u):
			for ; i < len(units) && strings.HasPrefix(strings.TrimSpace(units[i]), "|") && !isTableHead(units[i]); i++ {
				c.Body = append(c.Body, units[i])
			}
		default:
			c = adapters.Chunk{Body: []string{u}}
			for ; i < len(units) && fenceLen(units[i]) < 3 && !isTableHead(units[i]); i++ {
				c.Body = append(c.Body, units[i])
			}
		}
		out = append(out, c)
	}
	return out
}

// tableUnits joins each table's header row with its separator row, so the two stay together.
func tableUnits(lines []string) []string {
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		if i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|") && isSeparatorRow(lines[i+1]) {
			out = append(out, lines[i]+"\n"+lines[i+1])
			i++
			continue
		}
		out = append(out, lines[i])
	}
	return out
}

func isTableHead(u string) bool {
	first, second, ok := strings.Cut(u, "\n")
	return ok && strings.HasPrefix(strings.TrimSpace(first), "|") && isSeparatorRow(second)
}

func isSeparatorRow(s string) bool {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "|") || !strings.Contains(s, "-") {
		return false
	}
	return strings.Trim(s, "|-: ") == ""
}

// fenceLen is the length of the run of backticks opening line, 0 if it does not start with one.
func fenceLen(line string) int {
	s := strings.TrimLeft(line, " ")
	return len(s) - len(strings.TrimLeft(s, "`"))
}

func isClosingFence(line, opening string) bool {
	s := strings.TrimSpace(line)
	return s != "" && strings.Trim(s, "`") == "" && len(s) >= fenceLen(opening)
}

// cutRunes returns the longest prefix of s with at most n runes.
func cutRunes(s string, n int) string { return adapters.Cut(s, n, adapters.Runes) }
