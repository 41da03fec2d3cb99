package intents

import "github.com/eosbot/eos/catalog"

// parseValue parses the text of a flag or argument of type t with catalog.ParseValue, the one
// value parser: what the grammar accepts is exactly what the catalog checks defaults and
// declared values with.
func parseValue(t catalog.Type, s string) (catalog.Value, error) { return catalog.ParseValue(t, s) }
