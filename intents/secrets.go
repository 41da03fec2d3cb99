package intents

import "strings"

// secretWords mark a flag that carries a secret even when no blueprint declares it: a
// misspelt --admin-password, or a flag the blueprint does not have (--api-token).
var secretWords = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "api-key", "private-key", "credential"}

// maskRune replaces each rune of a secret value, so columns in a caret display still line up.
const maskRune = '•'

// secretFlag reports whether a flag name carries a secret: a flag some blueprint marks secret,
// a name one or two edits away from one (a typo), or a name that says so.
func (p *Parser) secretFlag(name string) bool {
	name = strings.ToLower(name)
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	for _, s := range p.secrets {
		if name == s || editDistance(name, s) <= threshold(name, s) {
			return true
		}
	}
	return false
}

// MaskSecrets returns text with the value of every secret flag (see secretFlag) masked rune
// for rune, and whether there was any. The engine uses it to take down a message in which a
// secret was typed even when the message does not parse, and Parse masks its errors' input
// with it, so that a caret display never repeats a secret.
func (p *Parser) MaskSecrets(text string) (string, bool) {
	start, _ := mentionEnd(text, p.botName)
	lx := newLexer(text, start)
	var spans [][2]int
	secret := false // the previous item was a secret flag without =value
	for {
		it := lx.nextItem()
		switch {
		case it.typ == itemEOF:
			return mask(text, spans), len(spans) > 0
		case it.typ == itemError:
			// An unterminated quote after a secret flag: the rest of the text is the value.
			if secret {
				spans = append(spans, [2]int{it.pos, len(text)})
			}
			return mask(text, spans), len(spans) > 0
		case it.typ == itemFlag:
			secret = p.secretFlag(it.val)
			continue
		case secret && (it.typ == itemValue || it.typ == itemWord || it.typ == itemString):
			spans = append(spans, [2]int{it.pos, it.end})
		}
		secret = false
	}
}

// mask replaces every rune inside spans (byte offsets, in order) with maskRune.
func mask(text string, spans [][2]int) string {
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s[0]])
		for range text[s[0]:s[1]] {
			b.WriteRune(maskRune)
		}
		last = s[1]
	}
	b.WriteString(text[last:])
	return b.String()
}
