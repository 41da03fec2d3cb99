package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A policy set that does not compile refuses start-up, naming the file and line; a reload to
// one keeps the set in force and says why; a reload to a good one puts it in force.
func TestAPolicySetThatDoesNotCompileRefusesStartUpAndReload(t *testing.T) {
	rules := t.TempDir()
	rule := filepath.Join(rules, "retired.rego")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(rule, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package eos.retired\n\ndeny contains msg if {\n\tmsg := no_such_function(input.request.target)\n}\n")
	path := writeTemp(t, "policy_dirs = [\""+rules+"\"]\npolicy_timeout = \"500ms\"\n")
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := build(context.Background(), cfg, quiet); err == nil || !strings.Contains(err.Error(), "retired.rego:4") {
		t.Fatalf("start-up with a set that does not compile: %v, want a refusal naming retired.rego:4", err)
	}
	if _, err := cfg.validate(io.Discard); err == nil || !strings.Contains(err.Error(), "retired.rego:4") {
		t.Errorf("config check of a set that does not compile: %v, want retired.rego:4", err)
	}

	write("package eos.retired\n\ndeny contains \"grafana is retired\" if input.request.target == \"grafana\"\n")
	a, err := build(context.Background(), cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	first := a.engine.PolicyCodeSHA256()
	if first == "" {
		t.Fatal("the configured policy set is not in force")
	}
	load := func() (*Config, error) { return loadConfig(path) }
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))

	write("package eos.retired\n\ndeny contains msg if {\n\tmsg := no_such_function(1)\n}\n")
	if reloadPolicy(context.Background(), load, a.engine, log) {
		t.Fatal("a policy set that does not compile was reloaded")
	}
	if got := a.engine.PolicyCodeSHA256(); got != first {
		t.Errorf("a failed reload changed the set in force: %s, want %s", got, first)
	}
	if !strings.Contains(logged.String(), "the approval policy and the policy set in force stay as they were") || !strings.Contains(logged.String(), "retired.rego:4") {
		t.Errorf("the failed reload does not say why:\n%s", logged.String())
	}

	write("package eos.retired\n\nwarn contains \"grafana is old\" if input.request.target == \"grafana\"\n")
	if !reloadPolicy(context.Background(), load, a.engine, log) {
		t.Fatalf("a good policy set was not reloaded:\n%s", logged.String())
	}
	if got := a.engine.PolicyCodeSHA256(); got == first || got == "" {
		t.Errorf("the reloaded set is not in force: %q (was %s)", got, first)
	}
}

// policy_dirs that hold no rule are refused: nothing would judge any plan.
func TestPolicyDirsWithoutRulesAreRefused(t *testing.T) {
	cfg := &Config{PolicyDirs: []string{t.TempDir()}}
	if _, _, err := cfg.policyCode(context.Background()); err == nil || !strings.Contains(err.Error(), "hold no .rego file") {
		t.Fatalf("empty policy_dirs: %v", err)
	}
	cfg = &Config{PolicyTimeout: "soon"}
	if _, _, err := cfg.policyCode(context.Background()); err == nil || !strings.Contains(err.Error(), `policy_timeout "soon"`) {
		t.Fatalf("a bad policy_timeout: %v", err)
	}
}

// eos config check with policy_dirs also prints the set that will judge every plan: its
// SHA-256 as the audit log names it, each deciding rule with its file and line, the time-out
// and the time zone; an operator checks it before a restart or a reload.
func TestConfigCheckPrintsThePolicySet(t *testing.T) {
	t.Setenv("EOS_DATA_DIR", t.TempDir())
	dir := t.TempDir()
	conf := filepath.Join(dir, "eos.hcl")
	body := "policy_dirs = [\"../../examples/policies\"]\npolicy_timeout = \"2s\"\npolicy_timezone = \"Europe/Berlin\"\n"
	if err := os.WriteFile(conf, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	root := rootCmd()
	var out, errs bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errs)
	root.SetArgs([]string{"config", "check", "--config", conf})
	if err := root.Execute(); err != nil {
		t.Fatalf("config check: %v\n%s", err, errs.String())
	}
	cfg := &Config{PolicyDirs: []string{"../../examples/policies"}}
	set, _, err := cfg.policyCode(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Policy as code (../../examples/policies): set sha256:" + set.SHA256()[:12] + ", each plan judged within 2s, times in Europe/Berlin. Its deciding rules:",
		"  eos.public_ssh.deny (public_ssh.rego:12)\n", "  eos.change_window.require (change_window.rego:19)\n", "  eos.salt_restart.warn (salt_restart.rego:9)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("config check does not print %q:\n%s", want, out.String())
		}
	}
}
