package salt

import (
	"encoding/json"
	"strings"

	"github.com/eosbot/eos/executor"
)

// What a state that would change does, told apart as Terraform's plan tells them: it creates
// something (a file or directory that is not there), removes something, or changes what is
// there. Salt's test mode says it in the state's changes: {"newfile": PATH} for a file.managed
// of a new file, {PATH: {"directory": "new"}} for a new directory, {"removed": PATH} for a
// file.absent, {"diff": "..."} for a file whose content changes.

// kindOf is what a would-change state does, from its function and its test-mode changes.
func kindOf(fun string, changes json.RawMessage) executor.Action {
	var m map[string]json.RawMessage
	_ = json.Unmarshal(changes, &m)
	if _, ok := m["removed"]; ok || strings.HasSuffix(fun, "absent") || strings.HasSuffix(fun, "removed") {
		return executor.Delete
	}
	if _, ok := m["newfile"]; ok {
		return executor.Create
	}
	for _, v := range m {
		var sub map[string]string
		if json.Unmarshal(v, &sub) == nil {
			for _, s := range sub {
				if s == "new" {
					return executor.Create
				}
			}
		}
	}
	return executor.Update
}

// diffText is the diff of a file's content in test-mode changes, "" when there is none. It
// may hold secrets: it is shown only masked (diffmask.go).
func diffText(changes json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(changes, &m) != nil {
		return ""
	}
	var diff string
	if json.Unmarshal(m["diff"], &diff) != nil {
		return ""
	}
	return diff
}

// diffCounts is how many lines a file's diff in test-mode changes adds and removes, and
// whether there is one.
func diffCounts(changes json.RawMessage) (added, removed int, ok bool) {
	diff := diffText(changes)
	if diff == "" || diff == "New file" {
		return 0, 0, false
	}
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		case strings.HasPrefix(l, "+"):
			added++
		case strings.HasPrefix(l, "-"):
			removed++
		}
	}
	return added, removed, true
}
