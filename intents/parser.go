package intents

import (
	"slices"
	"sort"
	"strings"

	"github.com/eosbot/eos/catalog"
)

// DefaultBotName is the mention Parse strips from the front of a message (`@eos`, `eos`, `/eos`).
const DefaultBotName = "eos"

// builtin describes one built-in verb: its word, synonyms, usage line and one-line summary,
// used by the parser, error messages and help.
type builtin struct {
	word     string
	verb     Verb
	synonyms []string
	usage    string
	summary  string
}

var builtins = []builtin{
	{"create", VerbCreate, []string{"deploy", "install", "add"},
		"create SERVICE [flags] [in ENV] [on NODES]", "deploy a service from the catalog"},
	{"destroy", VerbDestroy, []string{"remove", "delete", "uninstall"},
		"destroy SERVICE [in ENV]", "remove a service and everything Eos created for it"},
	{"update", VerbUpdate, []string{"upgrade"},
		"update SERVICE [flags] [in ENV]", "change the flags of a deployed service or bring it to the catalog's version"},
	{"status", VerbStatus, nil,
		"status [SERVICE] [in ENV]", "what is deployed and whether it is healthy"},
	{"drift", VerbDrift, nil,
		"drift [history | snoozed] [SERVICE] [in ENV]", "compare what runs with its declared state, show the trend, or list snoozed drift"},
	{"reconcile", VerbReconcile, []string{"fix"},
		"reconcile SERVICE [in ENV]", "plan a re-apply of the declared state, to undo drift"},
	{"adopt", VerbAdopt, nil,
		"adopt SERVICE [in ENV]", "plan taking what runs as the declared state, to keep drift that was meant"},
	{"plan", VerbPlan, nil,
		"plan SERVICE [flags] | plan PLAN-ID [full]", "preview a create without asking for approval, or show a plan's every change (in its thread, no id needed)"},
	{"rollback", VerbRollback, nil,
		"rollback SERVICE [to RUN] [in ENV]", "go back to the state an earlier run applied (the one before the current, or RUN)"},
	{"history", VerbHistory, nil,
		"history [SERVICE] [in ENV]", "past runs: what changed, who asked, who approved"},
	{"help", VerbHelp, nil,
		"help [COMMAND | SERVICE]", "this overview; help SERVICE lists every flag"},
	{"cancel", VerbCancel, nil,
		"cancel [PLAN-ID]", "drop a pending plan or stop a running one (in its thread, no id needed)"},
	{"policy", VerbPolicy, nil,
		"policy [ENV]", "who may ask for and approve changes, per environment"},
	{"locks", VerbLocks, nil,
		"locks", "which runs hold which services now"},
	{"why", VerbWhy, nil,
		"why [PLAN-ID]", "who approved a plan, whose reactions did not count and why, what it still needs (in its thread, no id needed)"},
	{"web", VerbWeb, nil,
		"web", "a one-time link that signs you in to the status page"},
}

func builtinOf(v Verb) *builtin {
	for i := range builtins {
		if builtins[i].verb == v {
			return &builtins[i]
		}
	}
	return nil
}

// Parser turns messages into Intents. It is built once from the catalog and is safe for
// concurrent use: Parse only reads it.
type Parser struct {
	cat      *catalog.Catalog
	botName  string              // the mention Parse skips and help shows
	verbs    map[string]verbInfo // lowercase word (verbs, synonyms, operation verbs) → verb
	verbList []string            // every word in verbs, sorted, for suggestions
	commands string              // "create, destroy, …, resize" for messages
	services map[string]*schema  // service name → schema
	svcNames []string            // sorted
	svcList  string              // "authentik, grafana, …"
	topics   []string            // every help topic, sorted, for suggestions
	secrets  []string            // lowercase names of the flags some blueprint marks secret
	// plainFlags are the lowercase names of every other flag, global ones included: a name
	// the catalog defines is secret only if a blueprint says so (see secretFlag).
	plainFlags []string
}

// verbInfo is what a verb word means.
type verbInfo struct {
	verb Verb
	word string // the canonical word: "create" for "deploy"
	// opVerb and ops are set when operations use this word as their verb ("resize").
	opVerb string
	ops    map[string]*schema
}

// schema is a blueprint prepared for parsing: flags by lowercase name, and the text used in
// messages, computed once.
type schema struct {
	bp       *catalog.Blueprint
	flags    map[string]*catalog.Flag
	names    []string // flag names in manifest order
	required []*catalog.Flag
	ownEnv   bool   // the blueprint defines its own --env, which shadows the global one
	ownNodes bool   // likewise --nodes
	usage    string // "resize lvm NAME SIZE"; for services, the service name
}

func newSchema(bp *catalog.Blueprint) *schema {
	s := &schema{bp: bp, flags: make(map[string]*catalog.Flag, len(bp.Flags)), usage: bp.Name}
	for i := range bp.Flags {
		f := &bp.Flags[i]
		name := strings.ToLower(f.Name)
		s.flags[name] = f
		s.names = append(s.names, name)
		if f.Required {
			s.required = append(s.required, f)
		}
		s.ownEnv = s.ownEnv || name == "env"
		s.ownNodes = s.ownNodes || name == "nodes"
	}
	if bp.Kind == catalog.KindOperation {
		var b strings.Builder
		b.WriteString(bp.Verb + " " + bp.Name)
		for _, a := range bp.Args {
			b.WriteString(" " + strings.ToUpper(a.Name))
		}
		s.usage = b.String()
	}
	return s
}

// NewParser precomputes the vocabulary (verbs, synonyms, nouns, flags) from the catalog.
func NewParser(cat *catalog.Catalog) *Parser {
	p := &Parser{cat: cat, botName: DefaultBotName, verbs: map[string]verbInfo{}, services: map[string]*schema{}}
	for _, b := range builtins {
		p.verbs[b.word] = verbInfo{verb: b.verb, word: b.word}
		for _, s := range b.synonyms {
			p.verbs[s] = verbInfo{verb: b.verb, word: b.word}
		}
	}
	for _, v := range cat.OperationVerbs() {
		ops := map[string]*schema{}
		for _, bp := range cat.Operations(v) {
			ops[strings.ToLower(bp.Name)] = newSchema(bp)
		}
		word := strings.ToLower(v)
		vi, ok := p.verbs[word]
		if !ok {
			vi = verbInfo{verb: VerbOperation, word: v}
		}
		vi.opVerb, vi.ops = v, ops
		p.verbs[word] = vi
	}
	for w := range p.verbs {
		p.verbList = append(p.verbList, w)
	}
	sort.Strings(p.verbList)

	cmds := make([]string, 0, len(builtins))
	for _, b := range builtins {
		cmds = append(cmds, b.word)
	}
	for _, v := range cat.OperationVerbs() {
		if p.verbs[strings.ToLower(v)].verb == VerbOperation {
			cmds = append(cmds, v)
		}
	}
	p.commands = strings.Join(cmds, ", ")

	for _, bp := range cat.Services() {
		p.services[strings.ToLower(bp.Name)] = newSchema(bp)
		p.svcNames = append(p.svcNames, bp.Name)
	}
	every := cat.Services()
	for _, v := range cat.OperationVerbs() {
		every = append(every, cat.Operations(v)...)
	}
	for _, bp := range every {
		for _, f := range bp.Flags {
			if name := strings.ToLower(f.Name); f.Secret && !slices.Contains(p.secrets, name) {
				p.secrets = append(p.secrets, name)
			}
		}
	}
	for _, bp := range every {
		for _, f := range bp.Flags {
			if name := strings.ToLower(f.Name); !slices.Contains(p.secrets, name) && !slices.Contains(p.plainFlags, name) {
				p.plainFlags = append(p.plainFlags, name)
			}
		}
	}
	for _, f := range append([]*catalog.Flag{&envFlag, &nodesFlag}, destroyFlags...) {
		p.plainFlags = append(p.plainFlags, f.Name)
	}
	p.svcList = strings.Join(p.svcNames, ", ")
	p.topics = helpTopics(cat)
	return p
}

// WithBotName returns a parser that skips a leading mention of name instead of
// DefaultBotName and says @name in help. The receiver is not changed.
func (p *Parser) WithBotName(name string) *Parser {
	q := *p
	q.botName = name
	return &q
}

// lookup finds w in a map keyed by lowercase words, ignoring ASCII case, without allocating
// for words of up to 64 bytes.
func lookup[V any](m map[string]V, w string) (V, bool) {
	if !hasUpper(w) {
		v, ok := m[w]
		return v, ok
	}
	var buf [64]byte
	if len(w) > len(buf) {
		v, ok := m[strings.ToLower(w)]
		return v, ok
	}
	n := copy(buf[:], w)
	for i := range n {
		if c := buf[i]; c >= 'A' && c <= 'Z' {
			buf[i] = c + 'a' - 'A'
		}
	}
	v, ok := m[string(buf[:n])]
	return v, ok
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// lowerASCII lowercases ASCII letters, allocating only when there is one to change.
func lowerASCII(s string) string {
	if !hasUpper(s) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
