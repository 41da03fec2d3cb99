package intents

import (
	"slices"
	"testing"
)

// Readers of verbs outside the grammar (the policy's verb blocks) see the grammar's own
// words and synonyms, operations included, so a synonym can be told from its verb.
func TestVerbWordsAreTheGrammars(t *testing.T) {
	p := NewParser(testCatalog(t))
	words := map[string][]string{}
	for _, v := range p.VerbWords() {
		words[v.Word] = v.Synonyms
	}
	if !slices.Equal(words["destroy"], []string{"remove", "delete", "uninstall"}) {
		t.Errorf("destroy's synonyms = %v", words["destroy"])
	}
	if _, ok := words["resize"]; !ok {
		t.Errorf("the catalog's operation verb resize is missing: %v", words)
	}
	for typed, want := range map[string]string{"remove": "destroy", "Destroy": "destroy", "deploy": "create", "resize": "resize"} {
		if got, ok := p.VerbOf(typed); !ok || got != want {
			t.Errorf("VerbOf(%q) = %q, %v; want %q", typed, got, ok, want)
		}
	}
	if got, ok := p.VerbOf("destory"); ok {
		t.Errorf("VerbOf(destory) = %q: a misspelling is no verb", got)
	}
}
