package terraform

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestCLIConfigText(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{name: "minimal", cfg: Config{}, want: "disable_checkpoint = true\n"},
		{name: "cache and mirror, escaped",
			cfg: Config{
				PluginCacheDir: `/var/lib/eos/plug"ins\x`,
				Mirror:         "/var/lib/eos/mirror",
				MirrorInclude:  []string{"registry.terraform.io/eos/*", "example.org/a/b"},
			},
			want: `disable_checkpoint                          = true
plugin_cache_dir                            = "/var/lib/eos/plug\"ins\\x"
plugin_cache_may_break_dependency_lock_file = true

provider_installation {
  filesystem_mirror {
    path    = "/var/lib/eos/mirror"
    include = ["registry.terraform.io/eos/*", "example.org/a/b"]
  }
  direct {
    exclude = ["registry.terraform.io/eos/*", "example.org/a/b"]
  }
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cliConfig(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestCLIConfigReadByTerraform checks that New writes the file where asked and that Terraform
// itself reads it without complaint, quotes in paths included.
func TestCLIConfigReadByTerraform(t *testing.T) {
	bin := terraformBinary(t)
	root := t.TempDir()
	cfgFile := filepath.Join(root, "etc", "cli.tfrc")
	l, err := New(Config{
		Binary:         bin,
		WorkDir:        filepath.Join(root, "work"),
		CLIConfigFile:  cfgFile,
		PluginCacheDir: filepath.Join(root, `plugin "cache"`),
		Mirror:         filepath.Join(root, "mirror"),
		MirrorInclude:  []string{"registry.terraform.io/eos/*"},
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if l.cliFile != cfgFile || l.env[cliConfigEnv] != cfgFile {
		t.Errorf("cli config file = %q, env %q; want %q", l.cliFile, l.env[cliConfigEnv], cfgFile)
	}
	text, err := os.ReadFile(cfgFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), `plugin \"cache\"`) || !strings.Contains(string(text), "filesystem_mirror") {
		t.Errorf("config file:\n%s", text)
	}
	if _, err := os.Stat(filepath.Join(root, `plugin "cache"`)); err != nil {
		t.Errorf("plugin cache dir not created: %v", err)
	}
	cmd := exec.Command(bin, "version")
	cmd.Env = []string{"TF_CLI_CONFIG_FILE=" + cfgFile, "CHECKPOINT_DISABLE=1", "HOME=" + root}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("terraform version: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("terraform complained about the CLI config:\n%s", stderr.String())
	}
}

func TestConfigValidation(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no workdir", Config{}, "WorkDir is required"},
		{"negative timeout", Config{WorkDir: dir, Timeout: -1}, "negative"},
		{"mirror without include", Config{WorkDir: dir, Mirror: dir}, "MirrorInclude must name"},
		{"include without mirror", Config{WorkDir: dir, MirrorInclude: []string{"a/b/c"}}, "Mirror is empty"},
		{"template in path", Config{WorkDir: dir, PluginCacheDir: "/x/${HOME}"}, "template sequences"},
		{"control char", Config{WorkDir: dir, Mirror: "/m", MirrorInclude: []string{"a\nb"}}, "control characters"},
		{"tfexec-managed env", Config{WorkDir: dir, Env: map[string]string{"TF_LOG": "TRACE"}}, "Env must not set TF_LOG"},
		{"tf var env", Config{WorkDir: dir, Env: map[string]string{"TF_VAR_size": "x"}}, "Env must not set TF_VAR_size"},
		{"layer-managed env", Config{WorkDir: dir, Env: map[string]string{"TF_CLI_CONFIG_FILE": "/x"}}, "the layer manages it"},
		{"bad env name", Config{WorkDir: dir, Env: map[string]string{"A=B": "x"}}, "invalid variable name"},
		{"missing binary", Config{WorkDir: dir, Binary: filepath.Join(dir, "no-terraform")}, "finding the terraform binary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestProcessEnv(t *testing.T) {
	host := []string{"PATH=/usr/bin", "HOME=/root", "TF_CLI_ARGS=-x", "TF_DATA_DIR=/d", "TF_VAR_a=1",
		"CHECKPOINT_DISABLE=", "TF_PLUGIN_CACHE_DIR=/p", "=weird",
		// Eos's own configuration and credentials never reach Terraform; the simulated cloud's
		// settings (EOSLAB_*) and PostgreSQL's (a pg backend's password) do.
		"EOS_VAULT_TOKEN=hvs.root", "EOS_MATTERMOST_TOKEN=mm", "EOS_STORE_DSN=postgres://eos:pw@db/eos",
		"EOSLAB_DELAY=1s", "PGPASSWORD=pg"}
	got := processEnv(host, map[string]string{"TOKEN": "t", "PATH": "/opt/bin"}, "/etc/eos.tfrc")
	want := map[string]string{"PATH": "/opt/bin", "HOME": "/root", "TOKEN": "t",
		"CHECKPOINT_DISABLE": "1", "TF_CLI_CONFIG_FILE": "/etc/eos.tfrc", "EOSLAB_DELAY": "1s", "PGPASSWORD": "pg"}
	if len(got) != len(want) {
		t.Errorf("env = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("env[%s] = %q, want %q", k, got[k], v)
		}
	}
}

// The plugin cache holds code Terraform runs unchecked (plugin_cache_may_break_dependency_lock_file),
// so a cache that another user could write refuses start-up, naming the fix.
func TestAPluginCacheOthersCanWriteIsRefused(t *testing.T) {
	work := t.TempDir()
	shared := filepath.Join(t.TempDir(), "plugins")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := New(Config{WorkDir: work, PluginCacheDir: shared})
	if err == nil || !strings.Contains(err.Error(), "is writable by group or others (mode 0777)") || !strings.Contains(err.Error(), "chmod go-w "+shared) {
		t.Fatalf("New with a world-writable plugin cache = %v, want a refusal naming the mode and the fix", err)
	}
	if err := os.Chmod(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{WorkDir: work, PluginCacheDir: shared}); err != nil {
		t.Fatalf("New with the cache made Eos's own: %v", err)
	}
	if os.Geteuid() != 0 {
		return // only root can give the directory to someone else
	}
	if err := os.Chown(shared, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	_, err = New(Config{WorkDir: work, PluginCacheDir: shared})
	if err == nil || !strings.Contains(err.Error(), "belongs to user id 4242") {
		t.Fatalf("New with a plugin cache owned by another user = %v, want a refusal naming the owner", err)
	}
}

// A blueprint's module runs with Terraform's environment, provider plugins and local-exec
// included: Eos's own credentials, given it as EOS_* variables, are not there.
func TestEosCredentialsNeverReachAModule(t *testing.T) {
	t.Setenv("EOS_VAULT_TOKEN", "hvs.must-not-leak")
	t.Setenv("EOS_MATTERMOST_TOKEN", "mm-must-not-leak")
	l := newTestLayer(t)
	dump := filepath.Join(t.TempDir(), "env")
	module := `resource "terraform_data" "env" {
  provisioner "local-exec" {
    command = "env > ` + dump + `"
  }
}
`
	s := spec(unit("envdump", map[string]string{"main.tf": module}, nil))
	mustApply(t, l, s, mustPlan(t, l, s))
	env, err := os.ReadFile(dump)
	if err != nil {
		t.Fatalf("the module's local-exec wrote nothing: %v", err)
	}
	if !strings.Contains(string(env), "TF_CLI_CONFIG_FILE=") {
		t.Fatalf("the dump is not Terraform's environment:\n%s", env)
	}
	for _, leak := range []string{"must-not-leak", "EOS_VAULT_TOKEN", "EOS_MATTERMOST_TOKEN"} {
		if strings.Contains(string(env), leak) {
			t.Errorf("the module's environment holds %q", leak)
		}
	}
}
