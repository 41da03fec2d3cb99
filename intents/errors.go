package intents

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// column is the 1-based rune column of byte offset pos in input. Invalid bytes count as one
// rune each, as ranging over a string does.
func column(input string, pos int) int {
	pos = min(max(pos, 0), len(input))
	return utf8.RuneCountInString(input[:pos]) + 1
}

func errAt(input string, pos int, msg, suggestion string) *Error {
	return &Error{Message: msg, Column: column(input, pos), Suggestion: suggestion, Input: input}
}

// quote shows a typed word in a message: in double quotes, with control and invisible
// characters escaped so that nothing typed can reshape the reply.
func quote(s string) string { return strconv.Quote(s) }

// caretWidth is how many runes of the input Caret shows; a longer input is cut to a window
// around the column, marked with … at the cut ends.
const caretWidth = 72

// Caret renders an error for the channel: the input line and a caret under the column, e.g.
//
//	create nextclod --sso
//	       ^ column 8
//
// Line breaks, tabs and invisible characters in the input are drawn as one cell each so that
// the caret stays under the right rune; wide characters (CJK, emoji) count as two cells.
func (e *Error) Caret() string {
	runes := []rune(e.Input)
	col := min(max(e.Column, 1), len(runes)+1)
	from, to := 0, len(runes)
	if len(runes) > caretWidth {
		from = max(0, min(col-1-caretWidth/2, len(runes)-caretWidth))
		to = min(len(runes), from+caretWidth)
	}
	var line, pad strings.Builder
	if from > 0 {
		line.WriteString("…")
		pad.WriteByte(' ')
	}
	for i := from; i < to; i++ {
		r := visible(runes[i])
		line.WriteRune(r)
		if i < col-1 {
			pad.WriteString("  "[:cellWidth(r)])
		}
	}
	if to < len(runes) {
		line.WriteString("…")
	}
	return line.String() + "\n" + pad.String() + "^ column " + strconv.Itoa(e.Column)
}

// visible maps a rune to what Caret draws for it: whitespace becomes a space, other
// non-printing runes (NUL, bidi overrides, invalid bytes) the replacement character.
func visible(r rune) rune {
	switch {
	case unicode.IsSpace(r):
		return ' '
	case !unicode.IsPrint(r):
		return utf8.RuneError
	}
	return r
}

// cellWidth is 2 for runes a monospace font draws double wide (East Asian wide and emoji), 1
// otherwise. An approximation good enough to place a caret.
func cellWidth(r rune) int {
	switch {
	case r < 0x1100:
		return 1
	case r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3,
		r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1F64F, r >= 0x1F680 && r <= 0x1F6FF,
		r >= 0x1F900 && r <= 0x1F9FF, r >= 0x1FA70 && r <= 0x1FAFF,
		r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}
