package rego

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The handles a set names as literal approvers are known when it loads, so the engine can pin
// them then: strings in an array or a set under "approvers", never groups, never a computed
// approver, never a string elsewhere.
func TestTheSetNamesItsLiteralApproverHandles(t *testing.T) {
	dir := t.TempDir()
	src := `package eos.owners

require contains {"msg": "grafana needs its owner", "approvers": ["dave", "group:sre", "slack:erin"], "approvals": 1} if {
	input.request.target == "grafana"
}

require contains {"msg": "nextcloud needs one of them", "approvers": {"frank"}, "approvals": 1} if {
	input.request.target == "nextcloud"
}

require contains {"msg": "computed", "approvers": [concat("", ["gr", "ace"])], "approvals": 1} if {
	input.request.target == "vault"
}

warn contains "heidi would want to know" if input.request.target == "heidi"
`
	if err := os.WriteFile(filepath.Join(dir, "owners.rego"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, dir)
	if got, want := s.Handles(), []string{"dave", "frank", "slack:erin"}; !slices.Equal(got, want) {
		t.Errorf("Handles() = %q, want %q", got, want)
	}
	var none *Set
	if none.Handles() != nil {
		t.Error("a nil set names handles")
	}
}
