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

// changeData is what a Salt or Nomad change says of itself as data (executor.SaltState,
// executor.NomadGroup), as the document's fields beside the change's lines: a Salt state's
// minion, id, function, name, changes (masked by the Salt layer) and disruption marks; a
// Nomad group's job, group, count, tasks and fields. Nothing for other changes, or for a
// plan kept from before changes carried data.
func changeData(c executor.Change) map[string]any {
	var data any
	switch {
	case c.Salt != nil:
		data = c.Salt
	case c.Nomad != nil:
		data = c.Nomad
	default:
		return nil
	}
	// Through JSON, so that the document holds only maps, lists, texts, numbers, bools and
	// nulls, as the document read back from the store does.
	raw, err := json.Marshal(data)
	if err != nil {
		return nil
	}
	var out map[string]any
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	return out
}
