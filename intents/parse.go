package intents

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/eosbot/eos/catalog"
)

// MaxInputBytes is the longest message Parse reads. A longer one is refused with an error whose
// column is that of the first rune that does not fit.
const MaxInputBytes = 4096

// parseBuf is what one Parse allocates, as a single object: the Intent, room for the flags and
// nodes of a typical command, and the lexer (which its state functions need on the heap anyway).
// It is kept within 512 bytes, the largest size class the Go allocator serves without a
// per-object type header; more flags or nodes, and operation arguments, are allocated apart.
type parseBuf struct {
	intent Intent
	flags  [2]Flag
	nodes  [2]string
	lex    lexer
}

// state is one Parse in progress.
type state struct {
	p      *Parser
	input  string
	lex    *lexer
	peeked bool
	ahead  item
	buf    *parseBuf
	in     *Intent
	// schema is the blueprint named by the noun, if any.
	schema *schema
	// flagsOK says whether the blueprint's flags may be given (create, update, plan,
	// operations); otherwise only the global ones are.
	flagsOK bool
	// full is set after a plan id: the word `full` may follow once.
	full bool
	// lastEnd is the end of the last item read: where something missing is reported.
	lastEnd int
}

// Parse parses one message. User mistakes come back as *Error (column, suggestion); it never
// panics. A leading mention of the bot (DefaultBotName) is optional and skipped; columns count
// runes from the start of text, 1-based.
func (p *Parser) Parse(text string) (*Intent, error) {
	if len(text) > MaxInputBytes {
		cut := MaxInputBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		return nil, errAt(text, cut, "message too long: "+strconv.Itoa(len(text))+
			" bytes, the limit is "+strconv.Itoa(MaxInputBytes), "")
	}
	if !utf8.ValidString(text) {
		return nil, invalidUTF8(text)
	}
	start, _ := mentionEnd(text, DefaultBotName)
	buf := new(parseBuf)
	buf.lex.init(text, start)
	buf.intent.Raw = text
	st := state{p: p, input: text, lex: &buf.lex, buf: buf, in: &buf.intent}
	if err := st.parse(); err != nil {
		return nil, err
	}
	return st.in, nil
}

func invalidUTF8(text string) *Error {
	i := 0
	for i < len(text) {
		r, w := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && w == 1 {
			break
		}
		i += w
	}
	return errAt(text, i, "the message is not valid UTF-8 (byte 0x"+
		strconv.FormatUint(uint64(text[i]), 16)+"): send it as text", "")
}

func (st *state) next() item {
	it := st.ahead
	if st.peeked {
		st.peeked = false
	} else {
		it = st.lex.nextItem()
	}
	if it.typ != itemEOF {
		st.lastEnd = it.end
	}
	return it
}

func (st *state) peek() item {
	if !st.peeked {
		st.ahead = st.lex.nextItem()
		st.peeked = true
	}
	return st.ahead
}

func (st *state) errAt(pos int, msg, suggestion string) *Error {
	return errAt(st.input, pos, msg, suggestion)
}

// lexError turns an error item into an *Error.
func (st *state) lexError(it item) *Error { return st.errAt(it.pos, it.val, "") }

func (st *state) parse() *Error {
	it := st.next()
	switch it.typ {
	case itemError:
		return st.lexError(it)
	case itemEOF:
		return st.errAt(it.pos, "say what to do, like create SERVICE; help lists everything", "")
	case itemWord:
	default:
		return st.errAt(it.pos, "start with a command, like create SERVICE, not "+quote(st.input[it.pos:it.end]), "")
	}
	vi, ok := lookup(st.p.verbs, it.val)
	if !ok {
		return st.unknownCommand(it)
	}
	st.in.Verb = vi.verb
	if vi.ops != nil && (vi.verb == VerbOperation || st.nounIn(vi.ops)) {
		st.in.Verb = VerbOperation
		st.in.Operation = vi.opVerb
		if err := st.operation(it, vi); err != nil {
			return err
		}
		return st.finish()
	}
	var err *Error
	switch vi.verb {
	case VerbCreate, VerbUpdate:
		st.flagsOK = true
		err = st.service(it, true)
	case VerbDestroy, VerbRollback:
		err = st.service(it, true)
	case VerbStatus, VerbDrift, VerbHistory:
		err = st.service(it, false)
	case VerbPlan:
		err = st.plan(it)
	case VerbCancel:
		err = st.cancel()
	case VerbHelp:
		err = st.help()
	}
	if err != nil {
		return err
	}
	return st.finish()
}

func (st *state) unknownCommand(it item) *Error {
	msg := "unknown command " + quote(it.val)
	s := suggest(it.val, st.p.verbList)
	if s == "" {
		msg += "; commands: " + st.p.commands
	}
	return st.errAt(it.pos, msg, s)
}

// nounIn reports whether the next word names one of ops, for a built-in verb word that
// operations also use.
func (st *state) nounIn(ops map[string]*schema) bool {
	nx := st.peek()
	if nx.typ != itemWord && nx.typ != itemString {
		return false
	}
	_, ok := lookup(ops, nx.val)
	return ok
}

// nounWord returns the next item if it can be a noun: a word that is not a phrase keyword, or
// a quoted string.
func (st *state) nounWord() (item, bool) {
	nx := st.peek()
	if nx.typ == itemString || nx.typ == itemWord && phraseOf(nx.val) == phraseNone {
		return st.next(), true
	}
	return nx, false
}

// missingAt is where a missing word is reported: at the item that came instead, or just
// after the previous word at the end of the input.
func missingAt(prev, instead item) int {
	if instead.typ == itemEOF {
		return prev.end
	}
	return instead.pos
}

// service parses the service noun of a built-in verb.
func (st *state) service(verb item, required bool) *Error {
	if nx := st.peek(); nx.typ == itemError {
		return st.lexError(st.next())
	}
	w, ok := st.nounWord()
	if !ok {
		if !required {
			return nil
		}
		return st.errAt(missingAt(verb, w), lowerASCII(verb.val)+" needs a service; services: "+st.p.svcList, "")
	}
	s, ok := lookup(st.p.services, w.val)
	if !ok {
		return st.unknownService(w, "")
	}
	st.schema = s
	st.in.Noun = s.bp.Name
	return nil
}

// unknownService reports w, which is not a service; context follows the word in the message.
func (st *state) unknownService(w item, context string) *Error {
	msg := "unknown service " + quote(w.val) + context
	s := suggest(w.val, st.p.svcNames)
	if s == "" {
		msg += "; services: " + st.p.svcList
	}
	return st.errAt(w.pos, msg, s)
}

func (st *state) operation(verb item, vi verbInfo) *Error {
	if nx := st.peek(); nx.typ == itemError {
		return st.lexError(st.next())
	}
	w, ok := st.nounWord()
	if !ok {
		return st.errAt(missingAt(verb, w), vi.opVerb+" needs a target: "+strings.Join(opNames(vi.ops), ", "), "")
	}
	s, ok := lookup(vi.ops, w.val)
	if !ok {
		names := opNames(vi.ops)
		msg := "unknown " + vi.opVerb + " target " + quote(w.val)
		sg := suggest(w.val, names)
		if sg == "" {
			msg += "; " + vi.opVerb + " works on: " + strings.Join(names, ", ")
		}
		return st.errAt(w.pos, msg, sg)
	}
	st.schema = s
	st.flagsOK = true
	st.in.Noun = s.bp.Name
	if n := len(s.bp.Args); n > 0 {
		st.in.Args = make([]catalog.Value, 0, n)
	}
	return nil
}

func opNames(ops map[string]*schema) []string {
	names := make([]string, 0, len(ops))
	for _, s := range ops {
		names = append(names, s.bp.Name)
	}
	sort.Strings(names)
	return names
}

// plan parses `plan SERVICE [flags]` (a create preview) or `plan PLAN-ID [full]`.
func (st *state) plan(verb item) *Error {
	if nx := st.peek(); nx.typ == itemError {
		return st.lexError(st.next())
	}
	w, ok := st.nounWord()
	if !ok {
		return st.errAt(missingAt(verb, w), "plan needs a service or a plan id, like plan nextcloud or plan 7f3a9c21", "")
	}
	if s, ok := lookup(st.p.services, w.val); ok {
		st.schema, st.flagsOK = s, true
		st.in.Noun = s.bp.Name
		return nil
	}
	if isPlanID(w.val) {
		st.in.Noun = lowerASCII(w.val)
		st.full = true
		return nil
	}
	return st.unknownService(w, " and not a plan id (8 hex digits, like 7f3a9c21)")
}

// cancel parses `cancel [PLAN-ID]`.
func (st *state) cancel() *Error {
	w, ok := st.nounWord()
	if !ok {
		return nil
	}
	if !isPlanID(w.val) {
		return st.errAt(w.pos, quote(w.val)+" is not a plan id: plan ids are 8 hex digits, like 7f3a9c21", "")
	}
	st.in.Noun = lowerASCII(w.val)
	return nil
}

// help parses `help [TOPIC]`, checking the topic against the catalog.
func (st *state) help() *Error {
	w, ok := st.nounWord()
	if !ok {
		return nil
	}
	topic, ok := st.p.topic(w.val)
	if !ok {
		return st.unknownTopic(w)
	}
	st.in.Noun = topic
	return nil
}

func (st *state) unknownTopic(w item) *Error {
	e := unknownTopic(w.val, st.p.topics)
	return st.errAt(w.pos, e.Message, e.Suggestion)
}

func isPlanID(s string) bool {
	if len(s) != 8 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// finish reads flags, phrases and positionals to the end and checks what must be there.
func (st *state) finish() *Error {
	for {
		it := st.next()
		switch it.typ {
		case itemEOF:
			return st.complete()
		case itemError:
			return st.lexError(it)
		case itemFlag:
			if err := st.flag(it); err != nil {
				return err
			}
		case itemWord:
			if ph := phraseOf(it.val); ph != phraseNone {
				if err := st.phrase(ph, it); err != nil {
					return err
				}
				continue
			}
			if err := st.positional(it); err != nil {
				return err
			}
		case itemString:
			if err := st.positional(it); err != nil {
				return err
			}
		default: // itemValue cannot come without its flag
			return st.errAt(it.pos, "unexpected "+quote(it.val), "")
		}
	}
}

// complete checks, at the end of the input, that no positional or required flag is missing.
func (st *state) complete() *Error {
	s := st.schema
	if s == nil || !st.flagsOK {
		return nil
	}
	if args := s.bp.Args; len(st.in.Args) < len(args) {
		a := args[len(st.in.Args)]
		return st.errAt(st.lastEnd, st.in.VerbWord()+" "+s.bp.Name+" needs "+strings.ToUpper(a.Name)+
			" ("+string(a.Type)+"); usage: "+s.usage, "")
	}
	if st.in.Verb == VerbUpdate {
		return nil // an update changes only what it names
	}
	var missing []string
	for _, f := range s.required {
		if _, ok := st.in.Flag(f.Name); !ok {
			missing = append(missing, "--"+f.Name+" ("+string(f.Type)+")")
		}
	}
	if len(missing) > 0 {
		return st.errAt(st.lastEnd, st.in.VerbWord()+" "+s.bp.Name+" needs "+strings.Join(missing, ", "), "")
	}
	return nil
}

// positional takes a word after the noun: the next typed argument of an operation, `full`
// after a plan id, or a mistake.
func (st *state) positional(it item) *Error {
	if s := st.schema; s != nil && st.flagsOK && len(st.in.Args) < len(s.bp.Args) {
		a := s.bp.Args[len(st.in.Args)]
		v, err := parseValue(a.Type, it.val)
		if err != nil {
			return st.errAt(it.pos, strings.ToUpper(a.Name)+": "+err.Error(), "")
		}
		st.in.Args = append(st.in.Args, v)
		return nil
	}
	if st.full && it.typ == itemWord && strings.EqualFold(it.val, "full") {
		st.full = false
		st.in.Args = []catalog.Value{catalog.StringValue(catalog.String, "full")}
		return nil
	}
	return st.unexpected(it)
}

func (st *state) unexpected(it item) *Error {
	if s := st.schema; s != nil && st.flagsOK {
		if _, ok := lookup(s.flags, it.val); ok {
			return st.errAt(it.pos, "unexpected "+quote(it.val)+"; flags start with --", "--"+lowerASCII(it.val))
		}
	}
	usage := builtinOf(st.in.Verb)
	switch {
	case st.in.Verb == VerbOperation:
		return st.errAt(it.pos, "unexpected "+quote(it.val)+"; usage: "+st.schema.usage, "")
	case usage != nil:
		return st.errAt(it.pos, "unexpected "+quote(it.val)+"; usage: "+usage.usage, "")
	}
	return st.errAt(it.pos, "unexpected "+quote(it.val), "")
}
