package intents

import (
	"strings"
	"unicode/utf8"
)

// Addressed reports whether text starts with a mention of the bot (`@eos`, `eos`, `/eos`, also
// `@eos:` / `eos,`) and returns the rest, without the whitespace that follows the mention. The
// name matches regardless of case and must end at whitespace, `:`, `,` or the end of the text
// (`eosbot` is not a mention of eos). When text is not addressed, it is returned unchanged.
func Addressed(text, botName string) (rest string, ok bool) {
	end, ok := mentionEnd(text, botName)
	if !ok {
		return text, false
	}
	return text[end:], true
}

// mentionEnd returns the byte offset just after a leading mention of botName and the
// whitespace that follows it.
func mentionEnd(text, botName string) (int, bool) {
	if botName == "" {
		return 0, false
	}
	i := skipSpace(text, 0)
	if i < len(text) && (text[i] == '@' || text[i] == '/') {
		i++
	}
	if len(text)-i < len(botName) || !strings.EqualFold(text[i:i+len(botName)], botName) {
		return 0, false
	}
	i += len(botName)
	if i < len(text) && (text[i] == ':' || text[i] == ',') {
		return skipSpace(text, i+1), true
	}
	if i < len(text) {
		if r, _ := utf8.DecodeRuneInString(text[i:]); !isSpace(r) {
			return 0, false
		}
	}
	return skipSpace(text, i), true
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isSpace(r) {
			break
		}
		i += w
	}
	return i
}
