package salt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/eosbot/eos/executor"
	"sort"
	"strings"
)

// stateResult is one state's outcome in a minion's return, keyed in Salt's way:
// "<module>_|-<id>_|-<name>_|-<function>".
type stateResult struct {
	Key     string
	Module  string
	ID      string
	Name    string
	Fun     string
	Result  *bool // nil: would change (test=True) or could not tell
	Changed bool
	Comment string
	RunNum  int
	// SLS is the sls the state was declared in (Salt's __sls__), which tells the units of a
	// combined dry run apart (batch.go).
	SLS string
	// Kind is what a state that would change does: create, update or delete (kind.go).
	Kind executor.Action
	// Detail says it in a few words: "new", "removed", "content +3 −1 lines".
	Detail string
	// Diff is the unified diff of a file whose content would change, as Salt returned it:
	// it may hold secrets, so it is never stored or shown before diffMasker.mask.
	Diff string
	// Changes are Salt's changes of the state as it returned them: they may hold secrets too,
	// so they are never stored or shown before diffMasker.changes.
	Changes json.RawMessage
}

// display names the state for people: "lvm.lv_present data-nextcloud", with the name when it
// differs from the ID ("file.managed nginx (/etc/nginx/nginx.conf)").
//
// A state reported by the event stream has no module and function (Salt's progress event
// does not carry them); it shows as its ID, with the name when it differs.
func (s stateResult) display() string {
	var d string
	switch {
	case s.Module != "":
		d = s.Module + "." + s.Fun + " " + s.ID
	case s.ID != "":
		d = s.ID
	default:
		return s.Key
	}
	if s.Name != "" && s.Name != s.ID {
		d += " (" + s.Name + ")"
	}
	return d
}

// function is the state's module and function: "file.managed"; "" when the return did not
// say (a state reported by the event stream).
func (s stateResult) function() string {
	if s.Module == "" {
		return ""
	}
	return s.Module + "." + s.Fun
}

// shortName names the state by its id, as the preview row does ("data-nextcloud").
func (s stateResult) shortName() string {
	if s.ID != "" {
		return s.ID
	}
	return s.Key
}

func (s stateResult) failed() bool { return s.Result != nil && !*s.Result }

// wouldChange reports whether a test=True run says applying would change this state: Salt
// marks those with result None, and some states report their would-be changes too.
func (s stateResult) wouldChange() bool { return !s.failed() && (s.Result == nil || s.Changed) }

// minionReturn is what one minion returned for a state run: its states in execution order, or
// why it returned none.
type minionReturn struct {
	Minion string
	States []stateResult
	// Err is set when the minion returned no states: it did not return, or Salt refused the
	// run (a render error, a conflicting run).
	Err string
	// DataDir is the minion's eos_data_dir as a dry run read it (datadir.go), "" when
	// unknown: text the reader sees, which the masks take as they take the minion's name.
	DataDir string
}

// seen are the texts of m that every reader of its changes sees anyway: the minion's name
// and its eos_data_dir when known.
func (m minionReturn) seen() []string {
	if m.DataDir == "" {
		return []string{m.Minion}
	}
	return []string{m.Minion, m.DataDir}
}

// firstFailure returns the first failed state in execution order.
func (m minionReturn) firstFailure() (stateResult, bool) {
	for _, s := range m.States {
		if s.failed() {
			return s, true
		}
	}
	return stateResult{}, false
}

// rawState is one state's entry in Salt's return.
type rawState struct {
	Result  *bool           `json:"result"`
	Changes json.RawMessage `json:"changes"`
	Comment json.RawMessage `json:"comment"`
	RunNum  int             `json:"__run_num__"`
	SLS     string          `json:"__sls__"`
}

// parseReturn reads one minion's return of state.apply. Salt returns a map of states on
// success; a string ("Minion did not return. [No response]") or a list of strings (render
// errors, "The function "state.apply" is running as PID ...") when no state ran; and false
// or nothing for a minion that did not answer.
func parseReturn(minion string, raw json.RawMessage) minionReturn {
	m := minionReturn{Minion: minion}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) || bytes.Equal(raw, []byte("false")) {
		m.Err = "did not return"
		return m
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		m.Err = s
		return m
	case '[':
		var list []any
		if err := json.Unmarshal(raw, &list); err != nil {
			m.Err = "unreadable return: " + err.Error()
			return m
		}
		parts := make([]string, 0, len(list))
		for _, v := range list {
			parts = append(parts, fmt.Sprint(v))
		}
		m.Err = strings.Join(parts, "; ")
		return m
	case '{':
	default:
		m.Err = "unexpected return: " + excerpt(raw)
		return m
	}
	var states map[string]rawState
	if err := json.Unmarshal(raw, &states); err != nil {
		m.Err = "unreadable return: " + err.Error()
		return m
	}
	for key, rs := range states {
		s := stateResult{Key: key, Result: rs.Result, Changed: nonEmpty(rs.Changes), Comment: commentText(rs.Comment), RunNum: rs.RunNum, Changes: rs.Changes, SLS: rs.SLS}
		if parts := strings.Split(key, "_|-"); len(parts) == 4 {
			s.Module, s.ID, s.Name, s.Fun = parts[0], parts[1], parts[2], parts[3]
		}
		s.Kind = kindOf(s.Fun, rs.Changes)
		switch a, r, ok := diffCounts(rs.Changes); {
		case s.Kind == executor.Create:
			s.Detail = "new"
		case s.Kind == executor.Delete:
			s.Detail = "removed"
		case ok:
			s.Detail = fmt.Sprintf("content +%d −%d lines", a, r)
			s.Diff = diffText(rs.Changes)
		}
		m.States = append(m.States, s)
	}
	sort.Slice(m.States, func(i, j int) bool {
		if m.States[i].RunNum != m.States[j].RunNum {
			return m.States[i].RunNum < m.States[j].RunNum
		}
		return m.States[i].Key < m.States[j].Key
	})
	return m
}

// nonEmpty reports whether a changes value holds anything ({} and [] and "" do not).
func nonEmpty(raw json.RawMessage) bool {
	switch strings.TrimSpace(string(raw)) {
	case "", "null", "{}", "[]", `""`, "false":
		return false
	}
	return true
}

// commentText flattens a state comment, which Salt gives as a string or a list of strings.
func commentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.TrimSpace(strings.Join(list, "; "))
	}
	return ""
}

// firstLine keeps the first line of a comment, for one-line details.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
