package intents

import (
	"slices"
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
// panics. A leading mention of the bot (DefaultBotName, or WithBotName's) is optional and
// skipped; columns count
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
	start, _ := mentionEnd(text, p.botName)
	buf := new(parseBuf)
	buf.lex.init(text, start)
	buf.intent.Raw = text
	st := state{p: p, input: text, lex: &buf.lex, buf: buf, in: &buf.intent}
	if err := st.parse(); err != nil {
		if spans := p.secretSpans(err.Input); len(spans) > 0 {
			err.Message = maskErrorText(err.Message, err.Input, spans)
			err.Suggestion = maskErrorText(err.Suggestion, err.Input, spans)
			err.Input = mask(err.Input, spans)
		}
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
	case VerbDestroy, VerbReconcile, VerbAdopt:
		err = st.service(it, true)
	case VerbRollback:
		if err = st.service(it, true); err == nil {
			err = st.rollbackTo()
		}
	case VerbDrift:
		if nx := st.peek(); nx.typ == itemWord && (lowerASCII(nx.val) == "history" || lowerASCII(nx.val) == "snoozed") {
			st.next()
			st.in.Args = append(st.in.Args, catalog.StringValue(catalog.String, lowerASCII(nx.val)))
		}
		err = st.service(it, false)
	case VerbStatus, VerbHistory:
		err = st.service(it, false)
	case VerbPlan:
		err = st.plan()
	case VerbCancel:
		err = st.cancel()
	case VerbPolicy:
		err = st.policy()
	case VerbWhy:
		err = st.why()
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
		a := &s.bp.Args[len(st.in.Args)]
		v, err := st.typedArg(a, it)
		if err != nil {
			return err
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

// typedArg parses an operation's positional argument and holds it to the argument's
// constraints (an enum's values, min, max, pattern), as typed holds a flag: what an operation
// is given often becomes part of a path or a command on a host, so it is refused here, with the
// caret under it, before anything is planned.
func (st *state) typedArg(a *catalog.Arg, it item) (catalog.Value, *Error) {
	if a.Type == catalog.Enum {
		for _, v := range a.Values {
			if strings.EqualFold(v, it.val) {
				return catalog.StringValue(catalog.Enum, v), nil
			}
		}
		msg := "bad value " + quote(it.val) + " for " + strings.ToUpper(a.Name)
		sg := suggest(it.val, a.Values)
		if sg == "" {
			msg += "; one of " + strings.Join(a.Values, ", ")
		}
		return catalog.Value{}, st.errAt(it.pos, msg, sg)
	}
	v, err := parseValue(a.Type, it.val)
	if err != nil {
		return catalog.Value{}, st.errAt(it.pos, strings.ToUpper(a.Name)+": "+err.Error(), "")
	}
	if err := a.Check(v); err != nil {
		return catalog.Value{}, st.errAt(it.pos, err.Error(), "")
	}
	return v, nil
}

func (st *state) unexpected(it item) *Error {
	if s := st.schema; s != nil && st.flagsOK {
		// A flag's name typed without dashes, as the one rule reads it (flagname.go).
		if n := nearestFlag(it.val, s.names); n != "" {
			if f := s.flags[n]; f.Secret {
				e := st.errAt(it.pos, secretNotTyped(f), "") // never "did you mean" a secret
				e.Secret = n
				return e
			}
			return st.errAt(it.pos, "unexpected "+quote(it.val)+"; flags start with --", "--"+n)
		}
	}
	if st.p.saysSecretFollows(it.val) { // `password hunter2`: said as a secret, never asked for again
		return st.errAt(it.pos, quote(it.val)+": secrets are never typed in chat"+st.generatedSecrets(), "")
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

// generatedSecrets says which secrets the request's blueprint has Eos generate ("; Eos
// generates --admin-password and keeps it in Vault"), or "" when it has none or is not known.
func (st *state) generatedSecrets() string {
	s := st.schema
	if s == nil {
		return ""
	}
	var names []string
	for n, f := range s.flags {
		if f.Secret {
			names = append(names, "--"+n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	it := "it"
	if len(names) > 1 {
		it = "them"
	}
	return "; Eos generates " + strings.Join(names, ", ") + " and keeps " + it + " in Vault"
}
