package intents

import (
	"sort"
	"strings"

	"github.com/eosbot/eos/catalog"
)

// The nouns: what follows the verb. A service for most verbs, an operation's target, a plan
// id, or a help topic.

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

// plan parses `plan SERVICE [flags]` (a create preview), `plan PLAN-ID [full]`, or `plan
// [full]`, which the engine answers with the plan of the thread it is said in.
func (st *state) plan() *Error {
	if nx := st.peek(); nx.typ == itemError {
		return st.lexError(st.next())
	}
	w, ok := st.nounWord()
	if !ok {
		return nil
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
	if strings.EqualFold(w.val, "full") {
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

// rollbackTo parses the optional `to RUN-ID` of `rollback SERVICE to RUN-ID`: the run whose
// state to return to, in Args.
func (st *state) rollbackTo() *Error {
	if nx := st.peek(); nx.typ != itemWord || lowerASCII(nx.val) != "to" {
		return nil
	}
	to := st.next()
	w, ok := st.nounWord()
	if !ok {
		return st.errAt(missingAt(to, w), "rollback … to needs a run id, like rollback "+st.in.Noun+" to 7f3a9c21 (@eos history "+st.in.Noun+" lists runs)", "")
	}
	if !isPlanID(w.val) {
		return st.errAt(w.pos, quote(w.val)+" is not a run id: run ids are 8 hex digits, like 7f3a9c21 (@eos history "+st.in.Noun+" lists them)", "")
	}
	st.in.Args = append(st.in.Args, catalog.StringValue(catalog.String, lowerASCII(w.val)))
	return nil
}

// why parses `why [PLAN-ID]`: without one, the engine takes the plan of the thread it is
// said in.
func (st *state) why() *Error {
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

// policy parses `policy [ENV]`: the environment may also come as `in ENV`.
func (st *state) policy() *Error {
	w, ok := st.nounWord()
	if !ok {
		return nil
	}
	st.in.Env = w.val
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
