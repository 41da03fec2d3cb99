package render

import (
	"strings"

	"github.com/eosbot/eos/adapters"
)

// Locks answers `locks`: rows are the locks held (unit, "run ID", "@asker", since), freed the
// locks left over from a crash that the answer freed ("KEY (run ID is not running any more)").
func Locks(rows [][]string, freed []string) adapters.Doc {
	var blocks []adapters.Block
	if len(rows) == 0 {
		blocks = append(blocks, adapters.Text{Text: "No service is locked: nothing is running."})
	} else {
		blocks = append(blocks, adapters.Heading{Text: "Locks"},
			adapters.Table{Header: []string{"unit", "held by", "asked by", "since"}, Rows: rows})
	}
	if len(freed) > 0 {
		blocks = append(blocks, adapters.Context{Text: "Freed: " + strings.Join(freed, ", ")})
	}
	return adapters.NewDoc(blocks...)
}
