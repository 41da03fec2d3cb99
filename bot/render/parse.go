package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/intents"
)

// ParseError explains a mistake the parser found: what is wrong, where, and what would be
// right, with where to look next in cat.
func ParseError(pe *intents.Error, cat *catalog.Catalog) adapters.Doc {
	blocks := []adapters.Block{adapters.Text{Text: pe.Error()}}
	if caret := pe.Caret(); caret != "" {
		blocks = append(blocks, adapters.Code{Text: caret})
	}
	blocks = append(blocks, adapters.Context{Text: parseHint(cat, pe.Input)})
	return adapters.NewDoc(blocks...)
}

// parseHint is where to look next after a mistake: the help of the service or operation the
// message names (its flags or arguments are the likely mistake), or the list of services.
func parseHint(cat *catalog.Catalog, input string) string {
	words := strings.Fields(input)
	for i, word := range words {
		if _, ok := cat.Service(word); ok {
			return fmt.Sprintf("@eos help %s lists its flags", word)
		}
		if i+1 < len(words) {
			if _, ok := cat.Operation(strings.ToLower(word), strings.ToLower(words[i+1])); ok {
				return fmt.Sprintf("@eos help %s lists its arguments, what each accepts, and its flags", strings.ToLower(words[i+1]))
			}
		}
	}
	return "Services: " + strings.Join(cat.ServiceNames(), ", ") + " · @eos help"
}
