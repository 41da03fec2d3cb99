package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
)

// A reload puts the configuration's new policy in force; one that does not load keeps the
// policy in force and logs why.
func TestReloadPutsTheNewPolicyInForceOrKeepsTheOld(t *testing.T) {
	path := writeTemp(t, `policy "production" {
  approvers = ["bob"]
}
`)
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	a, err := build(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	load := func() (*Config, error) { return loadConfig(path) }
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))

	if err := os.WriteFile(path, []byte(`policy "production" {
  approvers = ["bob", "dave"]
  approvals = 2
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if !reloadPolicy(context.Background(), load, a.engine, log) {
		t.Fatalf("a valid configuration was not reloaded:\n%s", logged.String())
	}
	if ep := a.engine.Policy().For("production", "create"); ep.Approvals != 2 || len(ep.Approvers) != 2 {
		t.Fatalf("policy after the reload = %+v, want 2 approvals from bob and dave", ep)
	}

	if err := os.WriteFile(path, []byte(`policy "production" {
  approvals = "two"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if reloadPolicy(context.Background(), load, a.engine, log) {
		t.Fatal("a configuration that does not parse was reloaded")
	}
	if ep := a.engine.Policy().For("production", "create"); ep.Approvals != 2 {
		t.Errorf("a failed reload changed the policy in force: %+v", ep)
	}
	if !strings.Contains(logged.String(), "configuration reload failed: the approval policy in force stays as it was") {
		t.Errorf("the failed reload was not logged:\n%s", logged.String())
	}
}
