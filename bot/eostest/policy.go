package eostest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/bot/policy/rego"
)

// PolicySet writes one Rego file and loads it as the policy in force.
func PolicySet(t *testing.T, name, src string) *rego.Set {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := rego.Load(context.Background(), []string{dir}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// RetiredPolicy is a policy set (one Rego file) that denies every plan for grafana.
const RetiredPolicy = `package eos.retired

deny contains msg if {
	input.request.target == "grafana"
	msg := "grafana is retired here: use the metrics stack"
}
`
