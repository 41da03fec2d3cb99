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

// split cuts markdown into pieces of at most limit runes, at line boundaries. A table cut in
// two repeats its header row in the next piece, and a code block cut in two is closed and
// reopened, so every piece renders on its own. Only a single line longer than a piece is cut
// inside.
func split(text string, limit int) []string {
	var (
		pieces  []string
		cur     []string
		curLen  int
		fenceAt string // opening line of the code block we are in, or ""
		head    string // header and separator rows of the table we are in, or ""
		carried int    // lines at the start of cur carried over from the previous piece
	)
	closing := func() string { return strings.TrimLeft(fenceAt, " ")[:fenceLen(fenceAt)] }
	flush := func() {
		if len(cur) <= carried {
			return
		}
		if fenceAt != "" {
			cur = append(cur, closing())
		}
		if s := strings.Trim(strings.Join(cur, "\n"), "\n"); s != "" {
			pieces = append(pieces, s)
		}
		cur, curLen, carried = nil, 0, 0
		switch {
		case fenceAt != "":
			cur, curLen, carried = []string{fenceAt}, utf8.RuneCountInString(fenceAt), 1
		case head != "":
			cur, curLen, carried = []string{head}, utf8.RuneCountInString(head), 1
		}
	}
	add := func(u string) {
		if len(cur) > 0 {
			curLen++
		}
		cur = append(cur, u)
		curLen += utf8.RuneCountInString(u)
	}

	units := tableUnits(strings.Split(text, "\n"))
	for _, u := range units {
		if fenceAt == "" && head != "" && !strings.HasPrefix(strings.TrimSpace(u), "|") {
			head = "" // the table ended: the next piece needs no header
		}
		closesFence := fenceAt != "" && isClosingFence(u, fenceAt)
		reserve := 0
		if fenceAt != "" && !closesFence {
			reserve = 1 + fenceLen(fenceAt)
		}
		size := utf8.RuneCountInString(u)
		if len(cur) > carried && curLen+1+size+reserve > limit {
			flush()
		}
		for sepLen(cur)+curLen+size+reserve > limit {
			// A line too long for any piece: cut it (at least one rune per round, so this ends).
			part := cutRunes(u, max(1, limit-reserve-curLen-sepLen(cur)))
			add(part)
			u = u[len(part):]
			size = utf8.RuneCountInString(u)
			flush()
		}
		add(u)
		switch {
		case closesFence:
			fenceAt = ""
		case fenceAt == "" && fenceLen(u) >= 3:
			fenceAt = u
		case fenceAt == "" && isTableHead(u):
			head = u
		}
	}
	fenceAt, head = "", ""
	flush()
	return pieces
}

func sepLen(cur []string) int {
	if len(cur) == 0 {
		return 0
	}
	return 1
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
func cutRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for range n {
		if i >= len(s) {
			return s
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
