package terraform

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	tfjson "github.com/hashicorp/terraform-json"
)

// unitDigest is a stable text of exactly what a unit's plan would do: one line per resource or
// output that changes, with its action and planned values. Sensitive values are replaced by a
// hash of themselves, so the digest changes when they do without containing them. Nothing
// that varies between equal plans (timestamps, paths, Terraform's own IDs of new objects) is
// in it.
func unitDigest(key string, p *tfjson.Plan) string {
	var lines []string
	for _, rc := range p.ResourceChanges {
		if rc == nil || rc.Change == nil || rc.Mode == tfjson.DataResourceMode {
			continue
		}
		act, ok := actionOf(rc.Change.Actions)
		if !ok {
			continue
		}
		c := rc.Change
		lines = append(lines, fmt.Sprintf("%s %s after=%s unknown=%s", act, rc.Address,
			canonical(hideSensitive(c.After, c.AfterSensitive)), canonical(c.AfterUnknown)))
	}
	for name, oc := range p.OutputChanges {
		if oc == nil {
			continue
		}
		act, ok := actionOf(oc.Actions)
		if !ok {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s output.%s after=%s unknown=%s", act, name,
			canonical(hideSensitive(oc.After, oc.AfterSensitive)), canonical(oc.AfterUnknown)))
	}
	sort.Strings(lines)
	if len(lines) == 0 {
		return "terraform " + key + ": no changes\n"
	}
	return "terraform " + key + ":\n  " + strings.Join(lines, "\n  ") + "\n"
}

// hideSensitive replaces the parts of v that marks flags as sensitive by their hash.
func hideSensitive(v, marks any) any {
	switch m := marks.(type) {
	case bool:
		if m {
			sum := sha256.Sum256([]byte(canonical(v)))
			return "(sensitive sha256:" + hex.EncodeToString(sum[:16]) + ")"
		}
	case map[string]any:
		obj, ok := v.(map[string]any)
		if !ok {
			break
		}
		out := make(map[string]any, len(obj))
		for k, x := range obj {
			out[k] = hideSensitive(x, m[k])
		}
		return out
	case []any:
		list, ok := v.([]any)
		if !ok {
			break
		}
		out := make([]any, len(list))
		for i, x := range list {
			var mark any
			if i < len(m) {
				mark = m[i]
			}
			out[i] = hideSensitive(x, mark)
		}
		return out
	}
	return v
}

// canonical is v as JSON with object keys sorted (encoding/json sorts map keys) and numbers
// kept as Terraform wrote them.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
