package intents

import (
	"slices"
	"strings"

	"github.com/eosbot/eos/catalog"
)

// The global flags, valid after any verb unless the blueprint defines a flag of the same name.
var (
	envFlag   = catalog.Flag{Name: "env", Type: catalog.String, Description: "the environment, same as in ENV"}
	nodesFlag = catalog.Flag{Name: "nodes", Type: catalog.List, Description: "the hosts, same as on NODES"}
	purgeFlag = catalog.Flag{Name: "purge-secrets", Type: catalog.Bool, Description: "destroy: also delete the service's secrets from Vault"}
	// purgeDataFlag asks destroy to remove what the service's Salt states created under the
	// minion's data directory; without it Salt keeps them and the preview names them.
	purgeDataFlag = catalog.Flag{Name: PurgeDataFlag, Type: catalog.Bool, Description: "destroy: also remove what its Salt states created under the minions' data directory (loses data)"}
	// dependentsFlag asks destroy to remove, first, the deployed services that require the
	// service; without it such a destroy is refused.
	dependentsFlag = catalog.Flag{Name: WithDependentsFlag, Type: catalog.Bool, Description: "destroy: also remove the deployed services that require it, before it"}
)

// PurgeDataFlag is the name of destroy's flag that removes the service's files on the minions.
const PurgeDataFlag = "purge-data"

// WithDependentsFlag is the name of destroy's flag that takes the service's dependents along.
const WithDependentsFlag = "with-dependents"

// destroyFlags are the flags only destroy takes, in the order help lists them.
var destroyFlags = []*catalog.Flag{&purgeDataFlag, &purgeFlag, &dependentsFlag}

// phraseKind is a keyword that starts a phrase: sugar for a flag.
type phraseKind uint8

const (
	phraseNone    phraseKind = iota
	phraseIn                 // in ENV        → Env
	phraseOn                 // on NODE[,…]   → Nodes
	phraseWith               // with FLAG [and FLAG…]    → --FLAG
	phraseWithout            // without FLAG [and FLAG…] → --no-FLAG
)

// phraseOf recognises a phrase keyword, ignoring case. To pass one of these words as a
// positional argument, quote it.
func phraseOf(w string) phraseKind {
	switch {
	case strings.EqualFold(w, "in"):
		return phraseIn
	case strings.EqualFold(w, "on"):
		return phraseOn
	case strings.EqualFold(w, "with"):
		return phraseWith
	case strings.EqualFold(w, "without"):
		return phraseWithout
	}
	return phraseNone
}

// flagSchema is the blueprint whose flags may be given, or nil when only global flags may.
func (st *state) flagSchema() *schema {
	if st.flagsOK {
		return st.schema
	}
	return nil
}

// resolveFlag finds the flag called name: the blueprint's own, a global one, or `no-NAME` for
// a flag NAME of the blueprint (negated reports that; the caller checks NAME is a bool).
func (st *state) resolveFlag(name string) (f *catalog.Flag, negated bool) {
	s := st.flagSchema()
	if s != nil {
		if f, ok := lookup(s.flags, name); ok {
			return f, false
		}
	}
	if (s == nil || !s.ownEnv) && strings.EqualFold(name, "env") {
		return &envFlag, false
	}
	if (s == nil || !s.ownNodes) && strings.EqualFold(name, "nodes") {
		return &nodesFlag, false
	}
	if st.in.Verb == VerbDestroy {
		for _, f := range destroyFlags {
			if strings.EqualFold(name, f.Name) {
				return f, false
			}
		}
	}
	if s != nil && len(name) > 3 && strings.EqualFold(name[:3], "no-") {
		if f, ok := lookup(s.flags, name[3:]); ok {
			return f, true
		}
	}
	return nil, false
}

// flag parses `--name`, `--name=value`, `--name value` or `--no-name`.
func (st *state) flag(it item) *Error {
	var val item
	hasVal := st.peek().typ == itemValue
	if hasVal {
		val = st.next()
	}
	f, negated := st.resolveFlag(it.val)
	switch {
	case f == nil:
		return st.unknownFlag(it, true)
	case negated && f.Type != catalog.Bool:
		return st.errAt(it.pos, quote("--"+it.val)+": only yes/no flags can be turned off, and --"+
			f.Name+" is a "+string(f.Type), "")
	case negated && hasVal:
		return st.errAt(val.pos-1, "--no-"+f.Name+" takes no value", "")
	case negated:
		return st.setFlag(it, f, catalog.BoolValue(false))
	case f.Type == catalog.Bool && !hasVal:
		return st.setFlag(it, f, catalog.BoolValue(true))
	case hasVal && val.end == val.pos:
		return st.missingValue(val.pos, f)
	case !hasVal:
		switch nx := st.peek(); nx.typ {
		case itemWord, itemString:
			val = st.next()
		case itemError:
			return st.lexError(st.next())
		default:
			return st.missingValue(it.end, f)
		}
	}
	switch f {
	case &envFlag:
		return st.setEnv(it, val)
	case &nodesFlag:
		return st.setNodes(it, val)
	}
	v, err := st.typed(f, val)
	if err != nil {
		return err
	}
	return st.setFlag(it, f, v)
}

// secretNotTyped is what an error says instead of asking for a secret flag's value.
func secretNotTyped(f *catalog.Flag) string {
	return "--" + f.Name + " is a secret: Eos generates it and keeps it in Vault, never type it in chat"
}

func (st *state) missingValue(pos int, f *catalog.Flag) *Error {
	if f.Secret {
		return st.errAt(pos, secretNotTyped(f), "")
	}
	msg := "--" + f.Name + " needs a value (" + string(f.Type) + ")"
	if f.Type == catalog.Enum {
		msg += ": one of " + strings.Join(f.Values, ", ")
	}
	return st.errAt(pos, msg, "")
}

// typed parses the value of flag f, checking enums and services against their sets.
func (st *state) typed(f *catalog.Flag, val item) (catalog.Value, *Error) {
	switch f.Type {
	case catalog.Enum:
		for _, v := range f.Values {
			if v == val.val || strings.EqualFold(v, val.val) {
				return catalog.StringValue(catalog.Enum, v), nil
			}
		}
		msg := "bad value " + quote(val.val) + " for --" + f.Name
		sg := suggest(val.val, f.Values)
		if sg == "" {
			msg += "; one of " + strings.Join(f.Values, ", ")
		}
		return catalog.Value{}, st.errAt(val.pos, msg, sg)
	case catalog.Service:
		s, ok := lookup(st.p.services, val.val)
		if !ok {
			return catalog.Value{}, st.unknownService(val, " for --"+f.Name)
		}
		return catalog.StringValue(catalog.Service, s.bp.Name), nil
	}
	v, err := parseValue(f.Type, val.val)
	if err != nil {
		return catalog.Value{}, st.errAt(val.pos, "--"+f.Name+": "+err.Error(), "")
	}
	// The blueprint's constraints (min, max, pattern, a port's range), checked where Render
	// checks them too; the message names the value and what is allowed, the caret the value.
	if err := f.Check(v); err != nil {
		return catalog.Value{}, st.errAt(val.pos, err.Error(), "")
	}
	return v, nil
}

func (st *state) setFlag(at item, f *catalog.Flag, v catalog.Value) *Error {
	for i := range st.in.Flags {
		if st.in.Flags[i].Name == f.Name {
			return st.errAt(at.pos, "--"+f.Name+" is given twice", "")
		}
	}
	if st.in.Flags == nil {
		st.in.Flags = st.buf.flags[:0]
	}
	st.in.Flags = append(st.in.Flags, Flag{Name: f.Name, Value: v})
	return nil
}

// unknownFlag reports a flag that is not defined, typed as --name (dashed) or in a phrase
// (`with name`), suggesting the nearest defined one.
func (st *state) unknownFlag(it item, dashed bool) *Error {
	s := st.flagSchema()
	var cands, secrets []string
	if s != nil {
		for _, n := range s.names {
			switch f := s.flags[n]; {
			case f.Secret:
				secrets = append(secrets, n) // never suggested, never listed: never typed
			case dashed || f.Type == catalog.Bool:
				cands = append(cands, n)
			}
		}
	}
	// A flag meant as a secret one (--ADMIN_PASSWORD, --admin-pasword) gets the secret's
	// answer, not a "did you mean" that asks for it to be typed.
	if n := nearestFlag(strings.TrimPrefix(flagKey(it.val), "no-"), secrets); n != "" && nearestFlag(strings.TrimPrefix(flagKey(it.val), "no-"), append(slices.Clone(cands), n)) == n {
		e := st.errAt(it.pos, secretNotTyped(s.flags[n]), "")
		e.Secret = n
		return e
	}
	if dashed && (s == nil || !s.ownEnv) {
		cands = append(cands, envFlag.Name)
	}
	if dashed && (s == nil || !s.ownNodes) {
		cands = append(cands, nodesFlag.Name)
	}
	if st.in.Verb == VerbDestroy {
		for _, f := range destroyFlags {
			cands = append(cands, f.Name)
		}
	}
	msg := "unknown flag " + quote("--"+it.val)
	if !dashed {
		msg = "unknown option " + quote(it.val)
	}
	if s != nil {
		msg += " for " + s.bp.Name
	}
	sg := nearestFlag(strings.TrimPrefix(flagKey(it.val), "no-"), cands)
	switch {
	case sg != "" && dashed:
		if strings.HasPrefix(strings.ToLower(it.val), "no-") {
			sg = "no-" + sg
		}
		sg = "--" + sg
	case sg != "":
	case len(cands) == 0 && s != nil:
		msg += "; " + s.bp.Name + " has no yes/no flags"
	case len(cands) == 0 || s == nil:
		only := []string{envFlag.Name, nodesFlag.Name}
		if st.in.Verb == VerbDestroy {
			for _, f := range destroyFlags {
				only = append(only, f.Name)
			}
		}
		msg += "; " + st.in.VerbWord() + " takes only " + andList(only, "--")
	case dashed:
		msg += "; flags: --" + strings.Join(cands, ", --")
	default:
		msg += "; yes/no flags: " + strings.Join(cands, ", ")
	}
	return st.errAt(it.pos, msg, sg)
}

// andList joins names as "--a, --b and --c".
func andList(names []string, prefix string) string {
	if len(names) == 0 {
		return ""
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " and " + out[len(out)-1]
}

// phrase parses `in ENV`, `on NODES`, `with FLAG [and FLAG…]` and `without FLAG [and FLAG…]`.
func (st *state) phrase(ph phraseKind, kw item) *Error {
	switch ph {
	case phraseIn:
		w, err := st.phraseArg(kw, "in needs an environment, like in staging")
		if err != nil {
			return err
		}
		return st.setEnv(kw, w)
	case phraseOn:
		w, err := st.phraseArg(kw, "on needs node names, like on node1,node2")
		if err != nil {
			return err
		}
		return st.setNodes(kw, w)
	}
	word := "with"
	if ph == phraseWithout {
		word = "without"
	}
	for {
		w, err := st.phraseArg(kw, word+" needs a flag name, like "+word+" sso")
		if err != nil {
			return err
		}
		if err := st.withFlag(word, w, ph == phraseWith); err != nil {
			return err
		}
		if nx := st.peek(); nx.typ != itemWord || !strings.EqualFold(nx.val, "and") {
			return nil
		}
		kw = st.next()
	}
}

// phraseArg takes the word after a phrase keyword; missing is the message when there is none.
func (st *state) phraseArg(kw item, missing string) (item, *Error) {
	switch nx := st.peek(); nx.typ {
	case itemWord, itemString:
		return st.next(), nil
	case itemError:
		return nx, st.lexError(st.next())
	default:
		return nx, st.errAt(missingAt(kw, nx), missing, "")
	}
}

// withFlag sets the yes/no flag named by w to on, for `with w` / `without w`.
func (st *state) withFlag(word string, w item, on bool) *Error {
	var f *catalog.Flag
	if s := st.flagSchema(); s != nil {
		f, _ = lookup(s.flags, w.val)
	}
	switch {
	case f == nil:
		return st.unknownFlag(w, false)
	case f.Secret:
		return st.errAt(w.pos, quote(word+" "+w.val)+": "+secretNotTyped(f), "")
	case f.Type != catalog.Bool:
		return st.errAt(w.pos, quote(word+" "+w.val)+": --"+f.Name+" is not a yes/no flag; write --"+
			f.Name+" "+placeholder(f), "")
	}
	return st.setFlag(w, f, catalog.BoolValue(on))
}

// setEnv sets the environment from `in ENV` or `--env ENV`; at is the keyword or flag.
func (st *state) setEnv(at, w item) *Error {
	env := lowerASCII(w.val)
	if !validName(env, 63, false) {
		return st.errAt(w.pos, quote(w.val)+" is not an environment name: use letters, digits, - and _", "")
	}
	if st.in.Env != "" {
		return st.errAt(at.pos, "the environment is given twice: "+quote(st.in.Env)+" and "+quote(env), "")
	}
	st.in.Env = env
	return nil
}

// validName accepts 1 to limit bytes of ASCII letters, digits, '-' and '_' (and '.' if dots),
// starting with a letter or digit.
func validName(s string, limit int, dots bool) bool {
	if s == "" || len(s) > limit {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '-' && c != '_' && (c != '.' || !dots)) {
			return false
		}
	}
	return true
}

// placeholder is how help and messages show a flag's value: "N", "SIZE", "a|b|c".
func placeholder(f *catalog.Flag) string {
	switch f.Type {
	case catalog.Bool:
		return ""
	case catalog.Int:
		return "N"
	case catalog.Hostname:
		return "NAME"
	case catalog.List:
		return "A,B"
	case catalog.Enum:
		return strings.Join(f.Values, "|")
	case catalog.String:
		return "TEXT"
	}
	return strings.ToUpper(string(f.Type))
}
