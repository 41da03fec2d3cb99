package intents

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/eosbot/eos/catalog"
)

// Help renders help text generated from the catalog: topic "" (overview of verbs and
// services), a verb ("create", "resize", or a synonym like "deploy"), or a service or
// operation noun ("nextcloud", "lvm"). An unknown topic is an *Error with a suggestion, its
// column counted in the topic.
func Help(cat *catalog.Catalog, topic string) (string, error) {
	return NewParser(cat).Help(topic)
}

// Help is the package's Help for the parser's catalog, without rebuilding the vocabulary.
func (p *Parser) Help(topic string) (string, error) {
	cat := p.cat
	t, ok := p.topic(strings.TrimSpace(topic))
	if !ok {
		return "", unknownTopic(topic, p.topics)
	}
	var b strings.Builder
	if t == "" {
		p.overview(&b)
		return b.String(), nil
	}
	written := false
	if vi, ok := p.verbs[t]; ok {
		if bi := builtinOf(vi.verb); bi != nil && vi.verb != VerbOperation && bi.word == t {
			p.verbHelp(&b, bi)
			written = true
		}
		if vi.ops != nil {
			p.opVerbHelp(&b, vi)
			written = true
		}
	}
	if s, ok := p.services[t]; ok {
		if written {
			b.WriteByte('\n')
		}
		p.serviceHelp(&b, s)
		written = true
	}
	for _, v := range cat.OperationVerbs() {
		if bp, ok := cat.Operation(v, t); ok {
			if written {
				b.WriteByte('\n')
			}
			operationHelp(&b, newSchema(bp))
			written = true
		}
	}
	return b.String(), nil
}

// helpTopics lists every word help knows, sorted: verbs, synonyms, operation verbs, services,
// operation nouns.
func helpTopics(cat *catalog.Catalog) []string {
	seen := map[string]bool{}
	for _, b := range builtins {
		seen[b.word] = true
		for _, s := range b.synonyms {
			seen[s] = true
		}
	}
	for _, v := range cat.OperationVerbs() {
		seen[strings.ToLower(v)] = true
		for _, bp := range cat.Operations(v) {
			seen[strings.ToLower(bp.Name)] = true
		}
	}
	for _, bp := range cat.Services() {
		seen[strings.ToLower(bp.Name)] = true
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// topic resolves a help topic to its canonical word: a synonym to its verb, any other known
// word to its lowercase self, "" to the overview.
func (p *Parser) topic(word string) (string, bool) {
	if word == "" {
		return "", true
	}
	w := strings.ToLower(word)
	if vi, ok := p.verbs[w]; ok {
		if vi.verb != VerbOperation && vi.opVerb == "" {
			return vi.word, true
		}
		return w, true
	}
	i := sort.SearchStrings(p.topics, w)
	return w, i < len(p.topics) && p.topics[i] == w
}

func unknownTopic(word string, topics []string) *Error {
	msg := "no help for " + quote(word)
	sg := suggest(word, topics)
	if sg == "" {
		msg += "; help alone lists the commands and services"
	}
	return &Error{Message: msg, Column: 1, Suggestion: sg, Input: word}
}

func (p *Parser) overview(b *strings.Builder) {
	b.WriteString("Commands (say @" + p.botName + " COMMAND):\n")
	var rows [][]string
	for _, bi := range builtins {
		line := bi.summary
		if len(bi.synonyms) > 0 {
			line += " · also " + strings.Join(bi.synonyms, ", ")
		}
		rows = append(rows, []string{bi.usage, line})
	}
	for _, v := range p.cat.OperationVerbs() {
		for _, bp := range p.cat.Operations(v) {
			rows = append(rows, []string{newSchema(bp).usage, firstLine(bp.Description)})
		}
	}
	writeTable(b, "  ", rows)
	b.WriteString("Services: " + p.svcList + "\n")
	b.WriteString("@" + p.botName + " help COMMAND or @" + p.botName + " help SERVICE for details\n")
}

func (p *Parser) verbHelp(b *strings.Builder, bi *builtin) {
	b.WriteString(bi.usage + " — " + bi.summary + "\n")
	if len(bi.synonyms) > 0 {
		b.WriteString("  also: " + strings.Join(bi.synonyms, ", ") + "\n")
	}
	switch bi.verb {
	case VerbCreate, VerbUpdate, VerbPlan:
		var rows [][]string
		for _, bp := range p.cat.Services() {
			line := firstLine(bp.Description)
			if fl := flagSummary(bp); fl != "" {
				line += " · " + fl
			}
			rows = append(rows, []string{bp.Name, line})
		}
		writeTable(b, "  ", rows)
		b.WriteString("  @" + p.botName + " help SERVICE for every flag, its type and default\n")
	case VerbDestroy:
		b.WriteString("  services: " + p.svcList + "\n")
		rows := make([][]string, len(destroyFlags))
		for i, f := range destroyFlags {
			rows[i] = []string{"--" + f.Name, strings.TrimPrefix(f.Description, "destroy: ")}
		}
		writeTable(b, "  ", rows)
	case VerbRollback, VerbStatus, VerbDrift, VerbHistory, VerbReconcile, VerbAdopt:
		b.WriteString("  services: " + p.svcList + "\n")
	}
}

// opVerbHelp lists the operations of one verb.
func (p *Parser) opVerbHelp(b *strings.Builder, vi verbInfo) {
	b.WriteString(vi.opVerb + " — operations:\n")
	var rows [][]string
	for _, bp := range p.cat.Operations(vi.opVerb) {
		rows = append(rows, []string{newSchema(bp).usage, firstLine(bp.Description)})
	}
	writeTable(b, "  ", rows)
	b.WriteString("  @" + p.botName + " help TARGET for its arguments and flags\n")
}

func (p *Parser) serviceHelp(b *strings.Builder, s *schema) {
	bp := s.bp
	b.WriteString(bp.Name + " — " + firstLine(bp.Description) + "\n")
	b.WriteString("  @" + p.botName + " create " + bp.Name + " [flags] [in ENV] [on NODES]\n")
	writeFlags(b, bp)
	writeRequires(b, bp)
	b.WriteString("  also: update, destroy, status, drift, plan, rollback, history " + bp.Name + "\n")
}

func operationHelp(b *strings.Builder, s *schema) {
	bp := s.bp
	b.WriteString(s.usage + " — " + firstLine(bp.Description) + "\n")
	if len(bp.Args) > 0 {
		constrained := false
		for i := range bp.Args {
			constrained = constrained || argAllowed(&bp.Args[i]) != ""
		}
		head := []string{"argument", "type", "description"}
		if constrained {
			head = []string{"argument", "type", "allowed", "description"}
		}
		rows := [][]string{head}
		for i := range bp.Args {
			a := &bp.Args[i]
			row := []string{strings.ToUpper(a.Name), string(a.Type), firstLine(a.Description)}
			if constrained {
				row = []string{strings.ToUpper(a.Name), string(a.Type), argAllowed(a), firstLine(a.Description)}
			}
			rows = append(rows, row)
		}
		writeTable(b, "  ", rows)
	}
	writeFlags(b, bp)
	writeRequires(b, bp)
}

// writeFlags writes every flag of bp with its type, default and description.
func writeFlags(b *strings.Builder, bp *catalog.Blueprint) {
	if len(bp.Flags) == 0 {
		b.WriteString("  no flags\n")
		return
	}
	constrained := false
	for i := range bp.Flags {
		constrained = constrained || !bp.Flags[i].Secret && allowedText(&bp.Flags[i]) != ""
	}
	head := []string{"flag", "type", "default", "description"}
	if constrained {
		head = []string{"flag", "type", "default", "allowed", "description"}
	}
	rows := [][]string{head}
	var secrets []string
	for i := range bp.Flags {
		f := &bp.Flags[i]
		if f.Secret {
			// Not a flag to type: Eos generates it, and a typed value is refused and taken down.
			secrets = append(secrets, f.Name)
			continue
		}
		name := "--" + f.Name
		if ph := placeholder(f); ph != "" {
			name += " " + ph
		}
		row := []string{name, string(f.Type), defaultText(f), firstLine(f.Description)}
		if constrained {
			row = []string{name, string(f.Type), defaultText(f), allowedText(f), firstLine(f.Description)}
		}
		rows = append(rows, row)
	}
	if len(rows) > 1 {
		writeTable(b, "  ", rows)
	}
	if len(secrets) > 0 {
		b.WriteString("  generated secrets, never typed in chat (Eos makes them and keeps them in Vault): " + strings.Join(secrets, ", ") + "\n")
	}
}

// allowedText is what help shows in a flag's allowed column: its range ("1–65535", "10G–4T",
// "at least 1") or the pattern its whole value must match; "" for a flag without constraints.
func allowedText(f *catalog.Flag) string {
	if r := f.Allowed(); r != "" {
		return r
	}
	if f.Pattern != "" {
		return "matches " + f.Pattern
	}
	return ""
}

// argAllowed is what help shows in an argument's allowed column: its constraints, or an
// enum's values (a flag shows those in its placeholder).
func argAllowed(a *catalog.Arg) string {
	if a.Type == catalog.Enum {
		return strings.Join(a.Values, "|")
	}
	return allowedText(a.AsFlag())
}

// defaultText is what help shows in a flag's default column. Secret values are never shown:
// they are generated into Vault.
func defaultText(f *catalog.Flag) string {
	switch {
	case f.Secret:
		return "secret, kept in Vault"
	case f.Required:
		return "required"
	case f.Default != nil && f.Type == catalog.Bool:
		return onOff(f.Default.Bool)
	case f.Default != nil:
		return f.Default.Text
	case f.Type == catalog.Bool:
		return "off"
	}
	return "none"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func writeRequires(b *strings.Builder, bp *catalog.Blueprint) {
	for _, r := range bp.Requires {
		switch {
		case strings.HasPrefix(r.Because, "because"):
			b.WriteString("  brings in " + r.Service + " " + r.Because + "\n")
		case r.Because != "":
			b.WriteString("  brings in " + r.Service + " because of " + r.Because + "\n")
		case r.When == nil:
			b.WriteString("  always brings in " + r.Service + "\n")
		default:
			b.WriteString("  may bring in " + r.Service + "\n")
		}
	}
}

// flagSummary is the short form of a service's flags for `help create`:
// "--sso, --port PORT (3000, 1–65535)". Secret flags are left out: they are never typed in
// chat. Ranges are shown, patterns only by help SERVICE (they are long).
func flagSummary(bp *catalog.Blueprint) string {
	var parts []string
	for i := range bp.Flags {
		f := &bp.Flags[i]
		if f.Secret {
			continue
		}
		s := "--" + f.Name
		if ph := placeholder(f); ph != "" {
			s += " " + ph
		}
		var notes []string
		switch {
		case f.Required:
			notes = append(notes, "required")
		case f.Default != nil && f.Type == catalog.Bool:
			if f.Default.Bool {
				notes = append(notes, "on")
			}
		case f.Default != nil:
			notes = append(notes, f.Default.Text)
		}
		if r := f.Allowed(); r != "" {
			notes = append(notes, r)
		}
		if len(notes) > 0 {
			s += " (" + strings.Join(notes, ", ") + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(line)
}

// writeTable writes rows with every column but the last padded to its widest cell.
func writeTable(b *strings.Builder, indent string, rows [][]string) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var line strings.Builder
		line.WriteString(indent)
		for i, c := range r {
			line.WriteString(c)
			if i < len(r)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}
