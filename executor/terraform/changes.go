package terraform

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/eosbot/eos/executor"
)

// maxDetailAttrs is how many changed attributes a Change's Detail names.
const maxDetailAttrs = 3

// actionOf maps Terraform's action list to the executor's action; ok is false for no-ops,
// reads and anything else that changes nothing.
func actionOf(a tfjson.Actions) (executor.Action, bool) {
	switch {
	case a.Replace():
		return executor.Replace, true
	case a.Create():
		return executor.Create, true
	case a.Update():
		return executor.Update, true
	case a.Delete():
		return executor.Delete, true
	}
	return "", false
}

// resourceChanges lists the changes of rcs that do something, in Terraform's order.
func resourceChanges(unit string, rcs []*tfjson.ResourceChange) []executor.Change {
	var out []executor.Change
	for _, rc := range rcs {
		if rc == nil || rc.Change == nil || rc.Mode == tfjson.DataResourceMode {
			continue
		}
		act, ok := actionOf(rc.Change.Actions)
		if !ok {
			continue
		}
		c := executor.Change{Unit: unit, Action: act, Address: rc.Address}
		switch act {
		case executor.Update, executor.Replace:
			c.Detail, c.Attrs = attrDiff(rc.Change)
		case executor.Create:
			c.Attrs = createdAttrs(rc.Change)
		}
		if act == executor.Replace || act == executor.Delete {
			c.Reason = reasonOf(rc)
		}
		if act == executor.Replace {
			c.Forces = replacePaths(rc.Change)
		}
		out = append(out, c)
	}
	return out
}

// attrDiff describes the top-level attributes c changes: `size "small" → "large"`. Sensitive
// values read "(sensitive)"; values Terraform learns only while applying read
// "(known after apply)" and are named only when nothing known changes. detail names the first
// maxDetailAttrs and counts the rest; all, one a line, is set only when detail leaves some out.
func attrDiff(c *tfjson.Change) (detail, all string) {
	before, _ := c.Before.(map[string]any)
	after, _ := c.After.(map[string]any)
	unknown, _ := c.AfterUnknown.(map[string]any)
	names := map[string]bool{}
	for k := range before {
		names[k] = true
	}
	for k := range after {
		names[k] = true
	}
	for k := range unknown {
		names[k] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	// Each attribute twice: with values shortened for the detail, and in full for all.
	var known, pending, knownFull, pendingFull []string
	for _, k := range keys {
		sensitive := marked(field(c.BeforeSensitive, k)) || marked(field(c.AfterSensitive, k))
		if marked(unknown[k]) {
			pending = append(pending, fmt.Sprintf("%s %s → (known after apply)", k, shortValue(before[k], sensitive)))
			pendingFull = append(pendingFull, fmt.Sprintf("%s %s → (known after apply)", k, formatValue(before[k], sensitive)))
			continue
		}
		if reflect.DeepEqual(before[k], after[k]) {
			continue
		}
		known = append(known, fmt.Sprintf("%s %s → %s", k, shortValue(before[k], sensitive), shortValue(after[k], sensitive)))
		knownFull = append(knownFull, fmt.Sprintf("%s %s → %s", k, formatValue(before[k], sensitive), formatValue(after[k], sensitive)))
	}
	parts, full := known, knownFull
	if len(parts) == 0 {
		parts, full = pending, pendingFull
	}
	if len(parts) > maxDetailAttrs || !slices.Equal(parts, full) {
		all = strings.Join(full, "\n")
	}
	if len(parts) > maxDetailAttrs {
		parts = append(parts[:maxDetailAttrs:maxDetailAttrs], fmt.Sprintf("and %d more", len(parts)-maxDetailAttrs))
	}
	return strings.Join(parts, ", "), all
}

// field returns marks[k] when marks is an object of marks.
func field(marks any, k string) any {
	if m, ok := marks.(map[string]any); ok {
		return m[k]
	}
	return marks
}

// marked reports whether a sensitivity or unknown mark structure has any true in it.
func marked(marks any) bool {
	switch m := marks.(type) {
	case bool:
		return m
	case map[string]any:
		for _, v := range m {
			if marked(v) {
				return true
			}
		}
	case []any:
		for _, v := range m {
			if marked(v) {
				return true
			}
		}
	}
	return false
}

// maxDetailValue is the longest value a change's Detail shows; Attrs shows every one whole.
const maxDetailValue = 60

// formatValue renders a plan value for a person, whole: strings quoted, collections as JSON.
func formatValue(v any, sensitive bool) string {
	if sensitive {
		return "(sensitive)"
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("%q", x)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// shortValue is formatValue cut to maxDetailValue, for a change's Detail.
func shortValue(v any, sensitive bool) string {
	return shorten(formatValue(v, sensitive), maxDetailValue)
}

// createdAttrs is every top-level attribute a create sets, one a line (`name = "grafana"`),
// for the full plan; the preview names only the resource. Sensitive values read
// "(sensitive)", values Terraform learns while applying "(known after apply)"; attributes left
// null are left out.
func createdAttrs(c *tfjson.Change) string {
	after, _ := c.After.(map[string]any)
	unknown, _ := c.AfterUnknown.(map[string]any)
	var lines []string
	for _, k := range sortedAttrs(after, unknown) {
		switch {
		case marked(unknown[k]):
			lines = append(lines, k+" = (known after apply)")
		case after[k] == nil:
		default:
			lines = append(lines, k+" = "+formatValue(after[k], marked(field(c.AfterSensitive, k))))
		}
	}
	return strings.Join(lines, "\n")
}
