package slack

import (
	"strings"
	"unicode/utf8"
)

// pack joins units (lines, list items, table rows) with newlines into texts of at most
// maxSectionText characters, each wrapped in open…close and, when head is set, starting with
// head (a table's header, repeated in every text). A text is cut only between units; only a unit
// too long for a text on its own is cut inside.
func pack(units []string, head, open, close string) []string {
	return packLimit(units, head, open, close, maxSectionText)
}

func packLimit(units []string, head, open, close string, limit int) []string {
	fixed := utf8.RuneCountInString(open) + utf8.RuneCountInString(close)
	if head != "" {
		fixed += utf8.RuneCountInString(head) + 1
	}
	if limit-fixed < 1 {
		// A header too wide to repeat: keep it only as the first unit.
		units, head = append([]string{head}, units...), ""
		fixed = utf8.RuneCountInString(open) + utf8.RuneCountInString(close)
	}
	room := max(1, limit-fixed)

	var (
		out []string
		cur []string
		n   int
	)
	flush := func() {
		body := strings.Join(cur, "\n")
		cur, n = nil, 0
		if strings.TrimSpace(body) == "" {
			return
		}
		if head != "" {
			body = head + "\n" + body
		}
		out = append(out, open+body+close)
	}
	for _, u := range units {
		size := utf8.RuneCountInString(u)
		if size > room {
			flush()
			for size > room {
				part := cutRunes(u, room)
				cur = []string{part}
				flush()
				u = u[len(part):]
				size = utf8.RuneCountInString(u)
			}
		}
		sep := 0
		if len(cur) > 0 {
			sep = 1
		}
		if n+sep+size > room {
			flush()
			sep = 0
		}
		cur = append(cur, u)
		n += sep + size
	}
	flush()
	if len(out) == 0 && head != "" {
		out = append(out, open+head+close)
	}
	return out
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
