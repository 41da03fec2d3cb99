package salt

import (
	"encoding/json"
	"testing"
)

func TestParseReturn(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		wantErr string
		wantIDs []string
	}{
		{"false", `false`, "did not return", nil},
		{"null", `null`, "did not return", nil},
		{"string", `"Minion did not return. [No response]"`, "Minion did not return. [No response]", nil},
		{"conflict list", `["The function \"state.apply\" is running as PID 4242"]`, `The function "state.apply" is running as PID 4242`, nil},
		{"number", `42`, "unexpected return: 42", nil},
		{"states in run order", `{
			"pkg_|-b_|-b_|-installed": {"result": true, "changes": {}, "comment": ["already", "installed"], "__run_num__": 1},
			"cmd_|-a_|-echo hi_|-run": {"result": null, "changes": {}, "comment": "Command would run", "__run_num__": 0},
			"odd-key": {"result": false, "changes": {"x": 1}, "comment": "bad", "__run_num__": 2}
		}`, "", []string{"a", "b", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := parseReturn("node1", json.RawMessage(tt.raw))
			if m.Err != tt.wantErr {
				t.Fatalf("Err = %q, want %q", m.Err, tt.wantErr)
			}
			var ids []string
			for _, s := range m.States {
				ids = append(ids, s.ID)
			}
			if len(ids) != len(tt.wantIDs) {
				t.Fatalf("ids %v, want %v", ids, tt.wantIDs)
			}
			for i := range ids {
				if ids[i] != tt.wantIDs[i] {
					t.Fatalf("ids %v, want %v", ids, tt.wantIDs)
				}
			}
			if tt.wantIDs == nil {
				return
			}
			a, b, odd := m.States[0], m.States[1], m.States[2]
			if !a.wouldChange() || a.display() != "cmd.run a (echo hi)" {
				t.Errorf("state a: wouldChange %v, display %q", a.wouldChange(), a.display())
			}
			if b.wouldChange() || b.Comment != "already; installed" {
				t.Errorf("state b: wouldChange %v, comment %q", b.wouldChange(), b.Comment)
			}
			if !odd.failed() || odd.display() != "odd-key" {
				t.Errorf("odd state: failed %v, display %q", odd.failed(), odd.display())
			}
			if f, ok := m.firstFailure(); !ok || f.Key != "odd-key" {
				t.Errorf("firstFailure = %v, %v", f, ok)
			}
		})
	}
}
