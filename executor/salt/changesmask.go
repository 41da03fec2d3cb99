package salt

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// saltWord is a key as Salt names what changed ("newfile", "diff", "mode", "old", "new"):
// kept, like a key the reader sees anyway; any other key is masked as a value would be.
var saltWord = regexp.MustCompile(`^[a-z][a-z_]*$`)

// saltNotes are what Salt writes in a change instead of a diff; they name nothing of the file.
var saltNotes = map[string]bool{"New file": true, "Replace binary file": true, "<show_changes=False>": true,
	"Replace text file with binary file": true, "Replace binary file with text file": true}

// changes is a state's test-mode changes as data for the policy set's rules, masked by the
// rule that masks a file's diff (diffmask.go): a text value is kept when it is made of what
// the reader sees anyway (or is one of Salt's notes, "New file"), and reads "<secret masked>"
// otherwise; a key is kept when it is a Salt word or made of what the reader sees, masked
// otherwise; numbers, bools and nulls are kept. A "diff" is diff, the change's diff already masked, or, when Salt's
// text is not a diff ("New file"), that text masked as any other. Never nil: {} when Salt
// reports no changes or something that is not a map.
func (m diffMasker) changes(raw json.RawMessage, diff string) map[string]any {
	var v map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return map[string]any{}
	}
	out := m.maskMap(v)
	if _, ok := v["diff"].(string); ok && diff != "" {
		out["diff"] = diff
	}
	return out
}

func (m diffMasker) maskMap(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	masked := 0
	for k, x := range v {
		if !saltWord.MatchString(k) && !m.free(k) {
			masked++
			k = secretMasked
			if masked > 1 {
				k = fmt.Sprintf("%s %d", secretMasked, masked)
			}
		}
		out[k] = m.maskValue(x)
	}
	return out
}

func (m diffMasker) maskValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return m.maskMap(t)
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = m.maskValue(x)
		}
		return out
	case string:
		if saltNotes[t] || m.free(t) {
			return t
		}
		return secretMasked
	}
	return v
}
