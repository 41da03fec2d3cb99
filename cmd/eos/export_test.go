package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

func TestExportWritesDeclaredState(t *testing.T) {
	data := t.TempDir()
	st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	spec := executor.Spec{Verb: "create", Target: "grafana", Env: "staging", Units: []executor.Unit{{
		Service: "grafana", Values: map[string]string{"port": "3001"}, Secrets: []string{"admin_password"},
		Terraform: &executor.TerraformPart{Files: map[string]string{"main.tf": "resource \"eoslab_server\" \"main\" {}\n"}, Vars: map[string]any{"port": 3001}},
		Nomad:     &executor.NomadPart{Template: "job \"grafana\" {}\n", Vars: map[string]any{"port": 3001}},
	}}}
	if err := st.StartRun(context.Background(), &store.Run{ID: "abc12345", Target: "grafana", Env: "staging"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishRun(context.Background(), "abc12345", store.RunDone, nil, time.Now(), &spec); err != nil {
		t.Fatal(err)
	}
	st.Close()

	out := filepath.Join(t.TempDir(), "state")
	os.MkdirAll(filepath.Join(out, "staging", "grafana", "stale"), 0o755)
	t.Setenv("EOS_DATA_DIR", data)
	cmd := rootCmd()
	var buf strings.Builder
	cmd.SetOut(&buf)
	cmd.SetArgs([]string{"export", out})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "exported 1 services to "+out+"\n" {
		t.Errorf("output = %q", buf.String())
	}
	for file, want := range map[string]string{
		"staging/grafana/declared.json":                   `"run": "abc12345"`,
		"staging/grafana/terraform/main.tf":               `resource "eoslab_server" "main"`,
		"staging/grafana/terraform/terraform.tfvars.json": `"port": 3001`,
		"staging/grafana/nomad/job.nomad.hcl":             `job "grafana"`,
		"staging/grafana/nomad/variables.json":            `"port": 3001`,
	} {
		raw, err := os.ReadFile(filepath.Join(out, file))
		if err != nil || !strings.Contains(string(raw), want) {
			t.Errorf("%s = %q (%v), want it to contain %q", file, raw, err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "staging", "grafana", "stale")); !os.IsNotExist(err) {
		t.Error("export kept a stale file")
	}
}

// The export mirrors the store: a service destroyed since the last export loses its folder,
// and what the team keeps beside the exported folders stays.
func TestExportRemovesServicesNoLongerDeployed(t *testing.T) {
	out := t.TempDir()
	for _, dir := range []string{"staging/grafana", "production/jenkins"} {
		os.MkdirAll(filepath.Join(out, dir), 0o755)
		os.WriteFile(filepath.Join(out, dir, "declared.json"), []byte("{}\n"), 0o644)
	}
	os.WriteFile(filepath.Join(out, "README.md"), []byte("our state\n"), 0o644)
	os.MkdirAll(filepath.Join(out, "production", "notes"), 0o755) // not written by an export
	grafana := &store.Deployed{Key: "staging/grafana", RunID: "r1", Spec: executor.Spec{Target: "grafana", Env: "staging",
		Units: []executor.Unit{{Service: "grafana", Values: map[string]string{}}}}}
	if _, err := export(out, []*store.Deployed{grafana}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "production", "jenkins")); !os.IsNotExist(err) {
		t.Errorf("the export kept jenkins, which is no longer deployed (%v)", err)
	}
	for _, keep := range []string{"README.md", "production/notes", "staging/grafana/declared.json"} {
		if _, err := os.Stat(filepath.Join(out, keep)); err != nil {
			t.Errorf("%s is gone: %v", keep, err)
		}
	}
}
