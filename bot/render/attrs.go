package render

import (
	"strings"

	"github.com/eosbot/eos/executor"
)

// AttrLines is every attribute c changes, or its Detail when that names them all.
func AttrLines(c executor.Change) []string {
	if c.Attrs != "" {
		return strings.Split(c.Attrs, "\n")
	}
	if c.Detail != "" {
		return []string{c.Detail}
	}
	return nil
}
