package bot

import (
	"encoding/json"
	"strings"

	"github.com/eosbot/eos/executor"
)

// attrValues reads a Terraform change's attribute lines into the values before and after it,
// for a policy to read as data (input.plan.layers.terraform.changes[_].after.rules) instead
// of parsing text. A create's line is `name = VALUE`, an update's `name BEFORE → AFTER`, a
// delete's `name = VALUE` (the value it had); a value is JSON, or what Terraform cannot show:
// "(known after apply)", "(sensitive)" — kept as those strings, so a masked value stays
// masked. Lines of other layers name their settings with spaces and are left as lines.
func attrValues(layer executor.LayerName, c executor.Change) (before, after map[string]any) {
	before, after = map[string]any{}, map[string]any{}
	if layer != executor.Terraform {
		return before, after
	}
	lines := nonEmptyLines(c.Attrs)
	if len(lines) == 0 && c.Detail != "" {
		lines = strings.Split(c.Detail, ", ") // the detail said it all
	}
	for _, line := range lines {
		name, rest, ok := strings.Cut(line, " ")
		if !ok || name == "" {
			continue
		}
		if v, ok := strings.CutPrefix(rest, "= "); ok {
			if c.Action == executor.Delete {
				before[name] = attrValue(v)
			} else {
				after[name] = attrValue(v)
			}
			continue
		}
		if b, a, ok := strings.Cut(rest, " → "); ok {
			before[name], after[name] = attrValue(b), attrValue(a)
		}
	}
	return before, after
}

// attrValue is an attribute line's value as data: its JSON decoded, or the text as it is.
func attrValue(s string) any {
	s = strings.TrimSpace(s)
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return v
}
