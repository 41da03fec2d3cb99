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
	return lineValues(lines, c.Action == executor.Delete)
}

// lineValues reads attribute lines into the values before and after them; a delete's
// `name = VALUE` lines are the values it had.
func lineValues(lines []string, deletes bool) (before, after map[string]any) {
	before, after = map[string]any{}, map[string]any{}
	for _, line := range lines {
		name, rest, ok := strings.Cut(line, " ")
		if !ok || name == "" {
			continue
		}
		if v, ok := strings.CutPrefix(rest, "= "); ok {
			if deletes {
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

// UpgradeKeptPolicyInput gives a kept input document (decoded JSON, changed in place) what a
// document built now holds: a Terraform change kept before changes carried their values as
// data gets `before` and `after`, read from its attribute lines as attrValues reads them.
// `eos policy replay` upgrades each document it judges, so a rule that reads
// changes[_].after decides on a document kept before as on one built now.
func UpgradeKeptPolicyInput(doc any) {
	d, _ := doc.(map[string]any)
	plan, _ := d["plan"].(map[string]any)
	layers, _ := plan["layers"].(map[string]any)
	tf, _ := layers[string(executor.Terraform)].(map[string]any)
	changes, _ := tf["changes"].([]any)
	for _, x := range changes {
		c, ok := x.(map[string]any)
		if !ok {
			continue
		}
		if _, has := c["after"]; has {
			continue
		}
		var lines []string
		attrs, _ := c["attrs"].([]any)
		for _, l := range attrs {
			if s, ok := l.(string); ok && s != "" {
				lines = append(lines, s)
			}
		}
		if detail, _ := c["detail"].(string); len(lines) == 0 && detail != "" {
			lines = strings.Split(detail, ", ")
		}
		action, _ := c["action"].(string)
		before, after := lineValues(lines, action == string(executor.Delete))
		c["after"] = after
		if _, has := c["before"]; !has {
			c["before"] = before
		}
	}
}
