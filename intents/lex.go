package intents

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexer follows Go's text/template/parse/lex.go: state functions, each returning the next
// state, driven synchronously by nextItem until one item is ready. No goroutines, no channels,
// and no allocation unless a quoted string contains escapes.
//
// Tokens:
//   - a word is a run of characters up to whitespace (`create`, `+50G`, `node1,node2`);
//   - a flag is `--name`, or `—name` / `–name` (the em and en dash that chat clients make of
//     `--`); `--name=value` is a flag followed by a value item;
//   - a quoted string starts at the beginning of a token with ", ' or “ and ends at the matching
//     closing quote. Double and curly quotes understand \" \\ \n \t (another backslash is kept
//     as typed); single quotes take everything literally. A quote inside a word is an ordinary
//     character, and a closing quote must be followed by whitespace or the end.

// itemType identifies a lexical item.
type itemType uint8

const (
	itemError  itemType = iota // a lexing error; val is the message
	itemEOF                    // end of input
	itemWord                   // a bare word
	itemString                 // a quoted string; val is unquoted
	itemFlag                   // --name; val is the name without dashes
	itemValue                  // the value after `=` in --name=value; val is unquoted
)

var itemNames = [...]string{"error", "EOF", "word", "string", "flag", "value"}

func (t itemType) String() string {
	if int(t) < len(itemNames) {
		return itemNames[t]
	}
	return "item?"
}

// item is one token with its byte offsets in the input.
type item struct {
	typ itemType
	pos int // offset of the item's first byte (the quote or the dashes included)
	end int // offset just after the item
	val string
}

// stateFn is one state of the lexer; it returns the next state.
type stateFn func(*lexer) stateFn

type lexer struct {
	input string
	start int // start of the item being lexed
	pos   int // current position
	state stateFn
	item  item // the item made ready by emit
	ready bool
}

// newLexer lexes input from byte offset start (after a stripped mention), so that every item's
// position is an offset in the whole text.
func newLexer(input string, start int) *lexer {
	l := new(lexer)
	l.init(input, start)
	return l
}

func (l *lexer) init(input string, start int) {
	l.input, l.start, l.pos, l.state = input, start, start, lexSpace
}

// nextItem runs the state machine until it produces an item. After EOF or an error it keeps
// returning EOF.
func (l *lexer) nextItem() item {
	l.ready = false
	for !l.ready {
		l.state = l.state(l)
	}
	return l.item
}

func (l *lexer) emitVal(t itemType, val string) {
	l.item = item{typ: t, pos: l.start, end: l.pos, val: val}
	l.ready = true
	l.start = l.pos
}

// errorAt emits an error item positioned at pos and stops the lexer.
func (l *lexer) errorAt(pos int, msg string) stateFn {
	l.item = item{typ: itemError, pos: pos, end: pos, val: msg}
	l.ready = true
	return lexEOF
}

func (l *lexer) peekRune() (rune, int) {
	if l.pos >= len(l.input) {
		return eof, 0
	}
	c := l.input[l.pos]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(l.input[l.pos:])
}

const eof rune = -1

// asciiSpace marks the ASCII whitespace bytes, as unicode.IsSpace sees them.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

func isSpace(r rune) bool {
	if r >= 0 && r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	return unicode.IsSpace(r)
}

// flagDashes returns how many bytes of dashes start a flag at pos: "--", or one em or en
// dash (three bytes); 0 when no flag starts there.
func (l *lexer) flagDashes() int {
	rest := l.input[l.pos:]
	switch {
	case strings.HasPrefix(rest, "--"):
		return 2
	case strings.HasPrefix(rest, "—"), strings.HasPrefix(rest, "–"):
		return len("—") // both are three bytes in UTF-8
	}
	return 0
}

// closingQuote returns the quote that closes a string opened by r, or 0 if r opens none.
func closingQuote(r rune) rune {
	switch r {
	case '"', '\'':
		return r
	case '“':
		return '”'
	case '‘':
		return '’'
	}
	return 0
}

// lexSpace skips whitespace and dispatches on the first character of the next token.
func lexSpace(l *lexer) stateFn {
	for {
		r, w := l.peekRune()
		if r == eof {
			l.start = l.pos
			return lexEOF
		}
		if !isSpace(r) {
			break
		}
		l.pos += w
	}
	l.start = l.pos
	if n := l.flagDashes(); n > 0 {
		l.pos += n
		return lexFlag
	}
	if r, _ := l.peekRune(); closingQuote(r) != 0 {
		return lexString
	}
	return lexWord
}

func lexEOF(l *lexer) stateFn {
	l.item = item{typ: itemEOF, pos: l.pos, end: l.pos}
	l.ready = true
	return lexEOF
}

func lexWord(l *lexer) stateFn {
	l.scanToSpace(0)
	l.emitVal(itemWord, l.input[l.start:l.pos])
	return lexSpace
}

// scanToSpace advances to the next whitespace, or to the ASCII byte stop if it is not 0.
func (l *lexer) scanToSpace(stop byte) {
	for l.pos < len(l.input) {
		c := l.input[l.pos]
		if c < utf8.RuneSelf {
			if asciiSpace[c] || c == stop && stop != 0 {
				return
			}
			l.pos++
			continue
		}
		r, w := utf8.DecodeRuneInString(l.input[l.pos:])
		if unicode.IsSpace(r) {
			return
		}
		l.pos += w
	}
}

func lexFlag(l *lexer) stateFn {
	nameStart := l.pos
	l.scanToSpace('=')
	name := l.input[nameStart:l.pos]
	if name == "" {
		return l.errorAt(l.start, "a flag needs a name after the dashes, like --sso")
	}
	l.emitVal(itemFlag, name)
	if r, _ := l.peekRune(); r == '=' {
		l.pos++
		l.start = l.pos
		return lexValue
	}
	return lexSpace
}

// lexValue lexes what follows `=`: a quoted string or the rest of the word, possibly empty.
func lexValue(l *lexer) stateFn {
	if r, _ := l.peekRune(); closingQuote(r) != 0 {
		return lexQuoted(l, itemValue)
	}
	l.scanToSpace(0)
	l.emitVal(itemValue, l.input[l.start:l.pos])
	return lexSpace
}

func lexString(l *lexer) stateFn { return lexQuoted(l, itemString) }

// lexQuoted lexes a quoted string starting at l.pos and emits it as typ.
func lexQuoted(l *lexer, typ itemType) stateFn {
	open, w := l.peekRune()
	quoteAt := l.pos
	closer := closingQuote(open)
	l.pos += w
	bodyStart := l.pos
	escapes := false
	for {
		r, w := l.peekRune()
		switch {
		case r == eof:
			return l.errorAt(quoteAt, "unterminated quote: "+string(open)+" is never closed")
		case r == '\\' && open != '\'':
			escapes = true
			l.pos += w
			if _, w2 := l.peekRune(); w2 > 0 {
				l.pos += w2
			}
			continue
		case r == closer:
			body := l.input[bodyStart:l.pos]
			l.pos += w
			if r, _ := l.peekRune(); r != eof && !isSpace(r) {
				return l.errorAt(l.pos, "put a space after the closing quote "+string(closer))
			}
			if escapes {
				body = unescape(body)
			}
			l.emitVal(typ, body)
			return lexSpace
		}
		l.pos += w
	}
}

// unescape resolves \" \\ \n \t (and the curly quotes escaped the same way); any other
// backslash is kept as typed.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case '"', '\\':
			b.WriteByte(s[i+1])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			if r, w := utf8.DecodeRuneInString(s[i+1:]); r == '”' || r == '’' {
				b.WriteString(s[i+1 : i+1+w])
				i += w
				continue
			}
			b.WriteByte('\\')
			continue
		}
		i++
	}
	return b.String()
}
