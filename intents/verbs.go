package intents

import (
	"slices"
	"strings"
)

// VerbWord is a verb as the grammar knows it: the word Eos answers to ("destroy", or an
// operation's "resize"), the verb it is, and the synonyms people may type for it.
type VerbWord struct {
	Verb     Verb
	Word     string
	Synonyms []string
}

// VerbWords lists the built-in verbs in help's order, then the catalog's operation verbs, so
// that what reads verbs outside the grammar (the policy's verb blocks) takes them from here.
func (p *Parser) VerbWords() []VerbWord {
	out := make([]VerbWord, 0, len(builtins)+len(p.cat.OperationVerbs()))
	for _, b := range builtins {
		out = append(out, VerbWord{Verb: b.verb, Word: b.word, Synonyms: slices.Clone(b.synonyms)})
	}
	for _, v := range p.cat.OperationVerbs() {
		if p.verbs[strings.ToLower(v)].verb == VerbOperation {
			out = append(out, VerbWord{Verb: VerbOperation, Word: v})
		}
	}
	return out
}

// VerbOf is the word Eos answers to for w as a message would use it, ignoring case:
// "destroy" for "remove" or "Destroy"; ok is false when w is no verb.
func (p *Parser) VerbOf(w string) (word string, ok bool) {
	vi, ok := lookup(p.verbs, w)
	return vi.word, ok
}
