package intents

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// A typed secret is the value after a word that names a secret flag, in any spelling Eos
// understands and in any form: `--NAME VALUE`, `--NAME=VALUE`, `with NAME VALUE` (and after
// `and` in that phrase), `NAME=VALUE`, `NAME: VALUE`, and `NAME VALUE`. A word names a secret
// flag when meansFlag says the parser would resolve or correct it to a flag some blueprint
// marks secret (a service's or an operation's), whichever blueprint the message names: the
// masker cannot know it in a message that does not parse, so it fails closed. A word that is
// no flag of any blueprint names a secret too when its name says so (--api-token), and only
// then: a flag a blueprint defines as not secret keeps its value.

// secretWords mark a flag that carries a secret by its name, when no blueprint defines it:
// --api-token, --db-pass. A name matches when one of its `-`-separated parts contains one of
// them, is one of secretParts, or ends in "key" (--signing-key, --apikey).
var (
	secretWords = []string{"pass", "secret", "token", "cred"}
	secretParts = []string{"pw", "pwd", "pin", "otp"}
)

// secretNouns are the words that say the next one is a secret wherever they stand, with no
// dashes and no blueprint defining them: `@eos create grafana password hunter2` (which the
// parser refuses, repeating the words it stumbled on). Only whole words, so that a name that
// merely contains one (an LVM volume "passdb") keeps the size after it.
var secretNouns = []string{"password", "passwd", "passphrase", "passcode", "pass", "pwd", "pw", "secret", "token", "apikey", "api-key", "api_key", "credential", "credentials"}

// saysSecretFollows reports whether word, standing alone, says a secret follows: one of
// secretNouns in any case, ending in `:` or not, that names nothing of the catalog (a service
// called token). The masker masks what follows it and the parser refuses it as a secret, by
// this one rule.
func (p *Parser) saysSecretFollows(word string) bool {
	return slices.Contains(secretNouns, strings.ToLower(strings.TrimSuffix(word, ":"))) && !p.names(word)
}

// names reports whether word names something of the catalog (a service, an operation's noun or
// verb), as `@eos status token` names a service called token: then it says no secret follows.
func (p *Parser) names(word string) bool {
	w := strings.ToLower(word)
	if _, ok := p.services[w]; ok {
		return true
	}
	if _, ok := p.verbs[w]; ok {
		return true
	}
	if p.cat == nil {
		return false
	}
	for _, v := range p.cat.OperationVerbs() {
		for _, b := range p.cat.Operations(v) {
			if strings.EqualFold(b.Name, w) {
				return true
			}
		}
	}
	return false
}

// maskRune replaces each rune of a secret value, so columns in a caret display still line up.
const maskRune = '•'

// secretFlag reports whether a flag name, as typed, carries a secret: the parser would take it
// for a flag some blueprint marks secret, or it is no blueprint's flag and its name says so.
func (p *Parser) secretFlag(name string) bool {
	if p.declaredSecret(name) {
		return true
	}
	k := strings.TrimPrefix(flagKey(name), "no-")
	if slices.Contains(p.plainFlags, k) {
		return false
	}
	for _, part := range strings.Split(k, "-") {
		if strings.HasSuffix(part, "key") || slices.Contains(secretParts, part) {
			return true
		}
		for _, w := range secretWords {
			if strings.Contains(part, w) {
				return true
			}
		}
	}
	return false
}

// declaredSecret reports whether the parser would take name for a flag some blueprint marks
// secret (see meansFlag).
func (p *Parser) declaredSecret(name string) bool {
	for _, s := range p.secrets {
		if meansFlag(name, s) {
			return true
		}
	}
	return false
}

// MaskSecrets returns text with every typed secret masked rune for rune, and whether there was
// any. The engine uses it to take down a message in which a secret was typed even when the
// message does not parse, and Parse masks its errors with it, so that a reply never repeats a
// secret.
func (p *Parser) MaskSecrets(text string) (string, bool) {
	spans := p.secretSpans(text)
	return mask(text, spans), len(spans) > 0
}

// secretSpans finds the byte spans of the typed secrets in text, in order. A secret's value is
// the item after its name whatever it is (a word, a quoted string, or something that looks like
// a flag), and the words after that up to the next flag or phrase keyword: a passphrase typed
// without quotes is one secret, not one masked word and three shown. An unterminated quote
// makes the rest of the text the value.
func (p *Parser) secretSpans(text string) [][2]int {
	start, _ := mentionEnd(text, p.botName)
	lx := newLexer(text, start)
	var spans [][2]int
	add := func(from, to int) {
		if n := len(spans); n > 0 && spans[n-1][1] >= from {
			spans[n-1][1] = max(spans[n-1][1], to)
			return
		}
		spans = append(spans, [2]int{from, to})
	}
	const (
		free   = iota // between phrases
		naming        // after `with`, `without` or `and` in them: the next word names a flag
		named         // after a flag name in a with-phrase: `and` names another
	)
	phrase := free
	value := false // the next item is a secret value
	more := false  // a secret value was masked: plain words after it belong to it
	for {
		it := lx.nextItem()
		switch it.typ {
		case itemEOF:
			return spans
		case itemError:
			if value || more {
				add(it.pos, len(text))
			}
			return spans
		}
		keyword := it.typ == itemWord && (phraseOf(it.val) != phraseNone || phrase == named && strings.EqualFold(it.val, "and"))
		switch {
		case value:
			add(it.pos, it.end)
			value, more, phrase = false, true, free // a flag-like value's =part is masked as more
			continue
		case more && (it.typ == itemWord && !keyword || it.typ == itemString || it.typ == itemValue):
			add(it.pos, it.end)
			continue
		}
		more = false
		switch it.typ {
		case itemFlag:
			phrase = free
			// --NAME:VALUE is one item; the lexer splits only at `=`.
			if i := strings.IndexByte(it.val, ':'); i > 0 && p.secretFlag(it.val[:i]) {
				if from := it.end - len(it.val) + i + 1; from < it.end {
					add(from, it.end)
					more = true
				} else {
					value = true
				}
				continue
			}
			value = p.secretFlag(it.val)
		case itemValue: // after a flag that is not secret
		case itemWord, itemString:
			if keyword {
				switch ph := phraseOf(it.val); {
				case ph == phraseWith || ph == phraseWithout || ph == phraseNone:
					phrase = naming
				default:
					phrase = free
				}
				continue
			}
			wasNaming := phrase == naming
			phrase = free
			if wasNaming {
				phrase = named
			}
			// NAME=VALUE and NAME:VALUE, or NAME: VALUE and NAME= VALUE; quoted, the whole.
			if i := strings.IndexAny(it.val, "=:"); i > 0 {
				switch {
				case !p.secretFlag(it.val[:i]):
				case i+1 == len(it.val):
					value = true
				case it.typ == itemString:
					add(it.pos, it.end)
					more = true
				default:
					add(it.pos+i+1, it.end)
					more = true
				}
				continue
			}
			// A flag's name without dashes: named in a with-phrase, or a bare word the
			// parser would take for a secret flag ("flags start with --").
			if wasNaming && p.secretFlag(it.val) || p.declaredSecret(it.val) || p.saysSecretFollows(it.val) {
				value = true
			}
		}
	}
}

// maskErrorText masks in s, an error's message about text, every secret of text (the spans
// of secretSpans) that it repeats: an error names the word it stumbles on, which may be the
// second word of a passphrase or a whole NAME=VALUE. A part of a secret of three runes or more
// is masked wherever it appears; a shorter one only where s quotes it whole, so that a value
// "a" does not mask every a of the message.
func maskErrorText(s, text string, spans [][2]int) string {
	for _, sp := range spans {
		for _, w := range strings.Fields(text[sp[0]:sp[1]]) {
			w = strings.Trim(w, "\"'“”‘’")
			m := strings.Repeat(string(maskRune), utf8.RuneCountInString(w))
			switch {
			case w == "":
			case utf8.RuneCountInString(w) >= 3:
				s = strings.ReplaceAll(s, w, m)
			default:
				s = strings.ReplaceAll(s, quote(w), quote(m))
			}
		}
	}
	return s
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
