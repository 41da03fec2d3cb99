package salt

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/eosbot/eos/executor"
)

// What a file's diff may show. Salt's test mode returns, for a file.managed whose content
// would change, the unified diff of the file as it is against the file as it would be. Either
// side may hold a secret Eos never saw: a value the state reads from the master's own pillar,
// from Vault or sdb, a file served from salt://, or whatever the service or a person wrote into
// the file on the host. Eos's own pillar holds none (a blueprint cannot pass a secret flag to
// it, and generated secrets stay in Vault), so masking cannot look for known values: it shows
// a line only when it can prove the line is made of what the approver sees anyway.
//
// A line of the diff is shown as it is when every word in it (a run of letters and digits) is a
// word of the unit's state text, of its pillar (keys and values) or of what the change names
// anyway (the file's path, the minion), every other character (not a space) occurs in them too,
// and no word names a secret (password, secret, token, key, … or one of the unit's secret
// names, in any case). Every other line, added, removed or context, reads "<secret masked>"
// after its +, - or space. Hunk headers are kept when they are only line numbers. So a secret
// is never shown in any spelling (plain, base64, hex, quoted, split over lines or words): each
// of its pieces would have to be a word of the blueprint itself.

// secretMasked replaces a line of a diff that may hold a secret.
const secretMasked = "<secret masked>"

// maxDiffLines bounds the diff a change keeps; the rest is counted.
const maxDiffLines = 400

// secretStems mark a line as likely holding a secret, whatever else it holds: a word (in any
// case) that contains one ("dbPassword", "SECRET_KEY" is two words, "secret" and "key"), or
// that is "key" or "auth" or ends in "key" ("apikey").
var secretStems = []string{"pass", "pwd", "secret", "token", "credential", "private"}

// hunkHeader is a unified diff's hunk header with nothing but line numbers.
var hunkHeader = regexp.MustCompile(`^@@ -\d+(,\d+)? \+\d+(,\d+)? @@$`)

// diffMasker decides which lines of a unit's file diffs may be shown.
type diffMasker struct {
	words  map[string]bool
	text   string // the corpus, for runs of other characters
	secret []string
}

// maskerFor is the masker of a unit: its corpus is the state text and the pillar.
func maskerFor(u executor.Unit) diffMasker {
	m := diffMasker{words: map[string]bool{}}
	var corpus strings.Builder
	if u.Salt != nil {
		corpus.WriteString(u.Salt.Text)
		corpus.WriteByte('\n')
		collectPillar(&corpus, u.Salt.Pillar)
	}
	m.text = corpus.String()
	for _, w := range splitRuns(m.text) {
		if isWord(w) {
			m.words[w] = true
		}
	}
	for _, s := range u.Secrets {
		for _, part := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			m.secret = append(m.secret, part)
		}
	}
	return m
}

// with is m also taking the words of shown, texts every reader of the change sees anyway (the
// file's path, the minion's name).
func (m diffMasker) with(shown ...string) diffMasker {
	words := make(map[string]bool, len(m.words))
	for w := range m.words {
		words[w] = true
	}
	for _, s := range shown {
		for _, w := range splitRuns(s) {
			if isWord(w) {
				words[w] = true
			}
		}
		m.text += "\n" + s
	}
	m.words = words
	return m
}

// collectPillar writes every key and value of the pillar, as text, one a line: strings
// unquoted, so that a value reads in the corpus as it reads in a file.
func collectPillar(b *strings.Builder, v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			b.WriteString(k + "\n")
			collectPillar(b, x)
		}
	case []any:
		for _, x := range t {
			collectPillar(b, x)
		}
	case string:
		b.WriteString(t + "\n")
	case nil:
	default:
		raw, _ := json.Marshal(t)
		b.Write(raw)
		b.WriteByte('\n')
	}
}

// mask returns diff with every line that may hold a secret masked, at most maxDiffLines lines.
// Salt's notes that are not a diff ("New file", "Replace binary file", "<show_changes=False>")
// give "".
func (m diffMasker) mask(diff string) string {
	diff = strings.TrimRight(diff, "\n")
	if diff == "" || !strings.Contains(diff, "\n@@") && !strings.HasPrefix(diff, "@@") {
		return ""
	}
	lines := strings.Split(diff, "\n")
	var out []string
	for i, l := range lines {
		if i == maxDiffLines {
			out = append(out, fmt.Sprintf("… %d more lines not kept", len(lines)-i))
			break
		}
		out = append(out, m.line(l))
	}
	return strings.Join(out, "\n")
}

// line is one line of a diff as it may be shown.
func (m diffMasker) line(l string) string {
	switch {
	case l == "--- " || l == "+++ " || hunkHeader.MatchString(l) || l == `\ No newline at end of file`:
		return l
	case strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "+++ "):
		if m.free(l[4:]) {
			return l
		}
		return l[:4] + secretMasked
	case l == "":
		return l
	}
	prefix, body := l[:1], l[1:]
	if prefix != "+" && prefix != "-" && prefix != " " {
		return secretMasked
	}
	if m.free(body) {
		return l
	}
	return prefix + secretMasked
}

// free reports whether s is provably free of secrets: made of the corpus's words, and of other
// characters it has, naming no secret.
func (m diffMasker) free(s string) bool {
	return m.made(s, true)
}

// made reports whether s is made of the corpus's words and of other characters it has, and,
// with secretWords, names no secret.
func (m diffMasker) made(s string, secretWords bool) bool {
	for _, r := range splitRuns(s) {
		switch {
		case strings.TrimSpace(r) == "":
		case isWord(r):
			if !m.words[r] || secretWords && m.namesSecret(strings.ToLower(r)) {
				return false
			}
		default:
			for _, c := range r {
				if !strings.ContainsRune(m.text, c) {
					return false
				}
			}
		}
	}
	return true
}

// namesSecret reports whether a word (lower case) marks its line as holding a secret.
func (m diffMasker) namesSecret(w string) bool {
	if w == "key" || w == "auth" || strings.HasSuffix(w, "key") {
		return true
	}
	for _, s := range secretStems {
		if strings.Contains(w, s) {
			return true
		}
	}
	for _, s := range m.secret {
		if w == s {
			return true
		}
	}
	return false
}

// splitRuns cuts s into runs of letters and digits, runs of spaces and runs of anything else.
func splitRuns(s string) []string {
	class := func(r rune) int {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return 0
		case unicode.IsSpace(r):
			return 1
		}
		return 2
	}
	var out []string
	start, prev := 0, -1
	for i, r := range s {
		c := class(r)
		if prev >= 0 && c != prev {
			out = append(out, s[start:i])
			start = i
		}
		prev = c
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func isWord(r string) bool {
	for _, c := range r {
		return unicode.IsLetter(c) || unicode.IsDigit(c)
	}
	return false
}
