package salt

import (
	"slices"
	"strings"
)

// A state's id and name are text the minion rendered, as a file's content is: a name built
// from a value of the master's own pillar, of a grain or of Vault ("{{ pillar['db_password']
// }}.conf") holds that value. So they are masked by the rule that masks a diff's line
// (diffmask.go), but for the words that mark a secret (names): an id or a name is shown when
// it is made of what the reader sees anyway (the unit's state text and pillar, the minion's
// name and, when a dry run could read it, its eos_data_dir: datadir.go), and reads "<secret
// masked>" (a path keeps the last segments that are shown: "<secret
// masked>/srv/grafana/grafana.ini") wherever it would reach the plan otherwise: the change's
// address, detail, what it forces, its data (id, name, service, triggers, data path), the
// failures and the preview row. Salt's comment is shown with those ids and names masked in
// it; the rest of it is Salt's own words.

// nameMask replaces, in any text of one minion's return, every id and name of its states
// that is not shown anyway by its masked form (maskName). The zero nameMask masks nothing.
type nameMask struct {
	r *strings.Replacer
	// hidden are the ids and names masked.
	hidden map[string]bool
}

// namesOf is the mask of m's states' ids and names for masker's unit.
func (masker diffMasker) namesOf(m minionReturn) nameMask {
	seen := masker.with(m.seen()...)
	masked := map[string]string{}
	for _, s := range m.States {
		for _, t := range []string{s.ID, s.Name, s.Key} {
			if t != "" && t != secretMasked && !seen.names(t) {
				masked[t] = seen.maskName(t)
			}
		}
	}
	if len(masked) == 0 {
		return nameMask{}
	}
	// Longest first: a name that holds an id is masked whole.
	texts := make([]string, 0, len(masked))
	for t := range masked {
		texts = append(texts, t)
	}
	slices.SortFunc(texts, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(texts))
	hidden := map[string]bool{}
	for _, t := range texts {
		pairs = append(pairs, t, masked[t])
		hidden[t] = true
	}
	return nameMask{r: strings.NewReplacer(pairs...), hidden: hidden}
}

// maskName is a name names does not prove shown, masked: a path keeps its last segments when
// they are shown anyway ("<secret masked>/srv/grafana/grafana.ini": the directory before them
// came from a value the blueprint does not say, a pillar of the master's or an eos_data_dir
// the dry run could not read), anything else reads "<secret masked>" whole.
func (masker diffMasker) maskName(t string) string {
	for i := 1; i < len(t); i++ {
		if t[i-1] == '/' && masker.names(t[i:]) {
			return secretMasked + "/" + t[i:]
		}
	}
	return secretMasked
}

// names reports whether an id or a name t is made of what the reader sees anyway. Unlike a
// diff's line (free), a word that marks a secret does not mask it: a file's name is not its
// content, and "/srv/app/tls.key" the state text says names the key without holding it; a
// name the minion rendered from a value the reader never sees is masked all the same.
func (masker diffMasker) names(t string) bool {
	return masker.made(t, false)
}

// text is s with the hidden ids and names masked.
func (n nameMask) text(s string) string {
	if n.r == nil || s == "" {
		return s
	}
	return n.r.Replace(s)
}

// shown are the ids and names of texts that are not hidden: what a diff may show as words the
// reader sees anyway.
func (n nameMask) shown(texts ...string) []string {
	var out []string
	for _, t := range texts {
		if !n.hidden[t] {
			out = append(out, t)
		}
	}
	return out
}

// texts are l's texts with the hidden ids and names masked.
func (n nameMask) texts(l []string) []string {
	out := make([]string, len(l))
	for i, t := range l {
		out[i] = n.text(t)
	}
	return out
}

// ret is m with every state's id, name, key and comment masked.
func (n nameMask) ret(m minionReturn) minionReturn {
	if n.r == nil {
		return m
	}
	m.States = slices.Clone(m.States)
	for i, s := range m.States {
		m.States[i] = n.state(s)
	}
	return m
}

// state is s with its id, name, key and comment masked: what a failure line or the preview
// row names it by.
func (n nameMask) state(s stateResult) stateResult {
	if n.r == nil {
		return s
	}
	s.ID, s.Name, s.Key, s.Comment = n.text(s.ID), n.text(s.Name), n.text(s.Key), n.text(s.Comment)
	return s
}
