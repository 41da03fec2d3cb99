package terraform

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeTerraform records its arguments and environment per subcommand, answers version, lets
// init succeed and fails everything else with a JSON diagnostic that quotes a secret.
const fakeTerraform = `#!/bin/sh
out="$EOS_FAKE_DIR/$1"
printf '%s\n' "$@" > "$out.args"
env > "$out.env"
case "$1" in
version) echo '{"terraform_version":"1.11.4","platform":"linux_amd64","provider_selections":{},"terraform_outdated":false}' ;;
init) ;;
*)
  echo '{"@level":"error","@message":"Error: Invalid size","type":"diagnostic","diagnostic":{"severity":"error","summary":"Invalid size","detail":"size \"hunter2-secret\" with token tok-123456 is not allowed"}}'
  echo 'raw stderr noise' >&2
  exit 1 ;;
esac
`

func TestEnvAndArgsReachTerraform(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "terraform")
	if err := os.WriteFile(bin, []byte(fakeTerraform), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "rec")
	if err := os.Mkdir(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_CLI_ARGS", "-from-the-host")
	t.Setenv("TF_DATA_DIR", "/from/the/host")
	t.Setenv("TF_VAR_size", "host")
	cfgFile := filepath.Join(dir, "cli.tfrc")
	l, err := New(Config{Binary: bin, WorkDir: filepath.Join(dir, "work"), CLIConfigFile: cfgFile,
		Env: map[string]string{"EOS_FAKE_DIR": rec, "PROVIDER_TOKEN": "tok-123456"}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	s := serverSpec("small")
	s.Units[0].Terraform.Vars["admin_password"] = "hunter2-secret"
	s.Units[0].Secrets = []string{"admin_password"}

	_, err = l.Plan(testCtx(t), s)
	want := `terraform plan for local/nextcloud: Invalid size: size "(redacted)" with token (redacted) is not allowed`
	if err == nil || err.Error() != want {
		t.Fatalf("Plan error = %v\nwant %s", err, want)
	}

	for _, cmd := range []string{"init", "plan"} {
		env := readLines(t, filepath.Join(rec, cmd+".env"))
		for _, kv := range []string{"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_CLI_CONFIG_FILE=" + cfgFile, "PROVIDER_TOKEN=tok-123456"} {
			if !slices.Contains(env, kv) {
				t.Errorf("%s env lacks %s", cmd, kv)
			}
		}
		for _, kv := range env {
			for _, leak := range []string{"TF_CLI_ARGS=", "TF_DATA_DIR=", "TF_VAR_"} {
				if strings.HasPrefix(kv, leak) {
					t.Errorf("%s env has the host's %s", cmd, kv)
				}
			}
		}
	}
	args := map[string][]string{
		"init": {"init", "-input=false", "-backend=true", "-upgrade=false"},
		"plan": {"plan", "-input=false", "-detailed-exitcode", "-var-file=eos.tfvars.json", "-json"},
	}
	for cmd, want := range args {
		got := readLines(t, filepath.Join(rec, cmd+".args"))
		for _, a := range want {
			if !slices.Contains(got, a) {
				t.Errorf("%s args %q lack %q", cmd, got, a)
			}
		}
		if cmd == "plan" && !slices.ContainsFunc(got, func(a string) bool {
			return strings.HasPrefix(a, "-out="+plansDir+"/") && strings.HasSuffix(a, planExt)
		}) {
			t.Errorf("plan args %q do not save the plan in its own file under %s/", got, plansDir)
		}
		if slices.Contains(got, "-destroy") {
			t.Errorf("%s args %q have -destroy", cmd, got)
		}
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the fake terraform left no record: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}
