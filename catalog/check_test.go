package catalog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckEmbedded(t *testing.T) {
	bin := terraformBinary(t)
	if diags := Check(t.Context(), nil, CheckOptions{Terraform: bin}); len(diags) > 0 {
		t.Errorf("the shipped blueprints have problems:\n%v", diags)
	}
}

// checkCases are the broken blueprints of testdata/check, each with the one problem Check must
// report (after the folder's path).
var checkCases = []struct{ dir, want string }{
	{"bad-type", `manifest.hcl:5:19: unknown type "sizes"; use one of bool, int, port, string, size, duration, hostname, path, list, enum, service`},
	{"type-mismatch", `manifest.hcl:17:7: terraform variable "volume_gb" is number in terraform/local and terraform/production, but the manifest gives it "10G": a number is required`},
	{"missing-variable", `manifest.hcl:17:7: terraform variable "domain" is not declared in terraform/production (declared: name)`},
	{"unknown-dependency", `manifest.hcl:4:3: requires "authentic", but the catalog has no such service (services: authentik, grafana, jenkins, nextcloud, unknowndependency)`},
	{"unformatted", `terraform/local/main.tf:1:1: not formatted (terraform fmt)`},
	{"outputs-differ", `terraform/production/outputs.tf:5:1: output "server_id" is not in variant local (terraform/local): every variant must give the same outputs`},
	{"undeclared-provider", `terraform/production/main.tf:16:1: resource "cloudflare_record" "main" needs provider "cloudflare", which required_providers does not declare: add it with a source and a version`},
	{"nomad-undeclared", `nomad/app.nomad.hcl:10:14: var.domain is not declared in nomad/app.nomad.hcl: add a variable "domain" block`},
	{"bad-constraint", `manifest.hcl:7:19: flag "storage" has min 2T above its max 500G`},
	{"holds-data-unknown", `manifest.hcl:6:18: holds_data names "eoslab_volume.data", which is not a resource of variant local (terraform/local); its resources: eoslab_server.main`},
	{"holds-data-forgotten", `manifest.hcl:7:5: variant production (terraform/production) does not say which of its resources hold data, but variant local does: add holds_data = [...] naming terraform/production's own volumes and databases (holds_data = [] if it keeps none)`},
	{"nomad-holds-data-unknown", `manifest.hcl:6:18: holds_data names group "db", which is not a task group of variant local (nomad/local.nomad.hcl); its groups: app`},
	{"nomad-holds-data-forgotten", `manifest.hcl:7:5: job variant production (nomad/production.nomad.hcl) does not say which of its task groups hold data, but variant local does: add holds_data = [...] naming nomad/production.nomad.hcl's own database groups (holds_data = [] if it keeps none)`},
	{"salt-holds-data-bad", `manifest.hcl:16:20: holds_data entry srv/saltholdsdatabad is not an absolute, clean path on the minion (a mount point or a device) (rendering with its defaults in variant production)`},
	{"env-names-forgotten", `terraform/local/main.tf:17:3: envnamesforgotten (local): eoslab_firewall.main name "proxy-envnamesforgotten" is the same in every environment; include the environment (${env})`},
	{"salt-yaml", `salt/app.sls:9:1: not valid YAML once its Jinja is replaced: did not find expected '-' indicator`},
	{"unbounded-string", `manifest.hcl:4:3: argument "name" is a string with no pattern: anything typed in chat reaches the layers, ../../etc included; bound it with pattern = "..." (an RE2 regexp the whole value must match, like "[a-z0-9][a-z0-9-]*") or make it an enum with values = [...]`},
}

func TestCheckBroken(t *testing.T) {
	bin := terraformBinary(t)
	entries, err := os.ReadDir("testdata/check")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(checkCases) {
		t.Errorf("testdata/check has %d cases, the table %d: keep them in step", len(entries), len(checkCases))
	}
	for _, tc := range checkCases {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "check", tc.dir)
			diags := Check(t.Context(), []string{dir}, CheckOptions{Terraform: bin})
			want := inFixture(dir, tc.want)
			if len(diags) != 1 || diags[0].String() != want {
				t.Errorf("got:\n%v\nwant:\n%s", diags, want)
			}
		})
	}
}

// inFixture prefixes "file:line:col: message" with the fixture folder dir.
func inFixture(dir, want string) string {
	file, rest, _ := strings.Cut(want, ":")
	return filepath.Join(dir, filepath.FromSlash(file)) + ":" + rest
}

// TestCheckReportsEveryProblem checks the folder of broken blueprints at once, as a team's CI
// would check its directory: every problem of every folder, in file order.
func TestCheckReportsEveryProblem(t *testing.T) {
	bin := terraformBinary(t)
	dir := filepath.Join("testdata", "check")
	diags := Check(t.Context(), []string{dir}, CheckOptions{Terraform: bin})
	// The list of services in one message names every fixture: compare without it.
	withoutServices := func(s string) string {
		before, _, _ := strings.Cut(s, " (services: ")
		return before
	}
	var got []string
	for _, d := range diags {
		got = append(got, withoutServices(d.String()))
	}
	for _, tc := range checkCases {
		want := withoutServices(inFixture(filepath.Join(dir, tc.dir), tc.want))
		if !containsString(got, want) {
			t.Errorf("missing %s", want)
		}
	}
	if len(got) != len(checkCases) {
		t.Errorf("got %d problems, want %d:\n%s", len(got), len(checkCases), strings.Join(got, "\n"))
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCheckWithoutTerraform(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-terraform")
	diags := Check(t.Context(), nil, CheckOptions{Terraform: missing})
	if len(diags) != 1 || !strings.HasPrefix(diags[0].Message, "running terraform fmt -check: ") {
		t.Errorf("got %v, want one problem saying terraform fmt could not run", diags)
	}
}

func TestCheckNotABlueprint(t *testing.T) {
	dir := t.TempDir()
	diags := Check(t.Context(), []string{dir, filepath.Join(dir, "absent")}, CheckOptions{Terraform: "unused"})
	want := []string{
		dir + ": neither a blueprint folder (no manifest.hcl) nor a folder of blueprint folders",
		filepath.Join(dir, "absent") + ": stat " + filepath.Join(dir, "absent") + ": no such file or directory",
	}
	if len(diags) != 2 || diags[0].String() != want[0] || diags[1].String() != want[1] {
		t.Errorf("got:\n%v\nwant:\n%s", diags, strings.Join(want, "\n"))
	}
}

// TestCheckProviderRequirements covers the required_providers entries Check refuses: no source
// (Terraform would look for hashicorp/NAME) and no version.
func TestCheckProviderRequirements(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"manifest.hcl": "service \"loose\" {\n  description = \"loose providers\"\n\n  terraform {\n    module = \"tf\"\n    variables = { env = env }\n  }\n}\n",
		"tf/main.tf": `terraform {
  required_providers {
    eoslab = {
      version = ">= 0.1.0"
    }
    hcloud = {
      source = "hetznercloud/hcloud"
    }
  }
}

resource "eoslab_server" "main" {
  name  = "x-${var.env}"
  size  = "small"
  image = "debian-12"
}

variable "env" {
  type = string
}
`,
	}
	writeBlueprint(t, dir, "loose", files)
	diags := Check(t.Context(), []string{filepath.Join(dir, "loose")}, CheckOptions{Terraform: terraformBinary(t)})
	file := filepath.Join(dir, "loose", "tf", "main.tf")
	want := file + `:3:5: provider "eoslab" has no source: write it as { source = "NAMESPACE/eoslab", version = "..." }` + "\n" +
		file + `:6:5: provider "hcloud" has no version constraint: pin one, like version = "~> 1.0"`
	if diags.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", diags, want)
	}
}

func TestCheckSalt(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"plain yaml", "app:\n  pkg.installed: []\n", ""},
		{"jinja everywhere", "{#- a comment\n   over lines #}\n{%- set x = 1 %}\n{{ id }}-app:\n  file.managed:\n    - name: {{ x | yaml_dquote }}\n    - mode: '0644'\n{% if x %}\n    - user: root\n{% endif %}\n", ""},
		{"only jinja", "{% set x = 1 %}\n{# nothing else #}\n", ""},
		{"tab", "app:\n\tpkg.installed: []\n", "2:1: not valid YAML once its Jinja is replaced: found character that cannot start any token"},
		{"unclosed statement", "app:\n  pkg.installed:\n    - name: {% if x\n", "3:13: Jinja {% is never closed with %}"},
		{"unclosed expression", "a: {{ x\n", "1:4: Jinja {{ is never closed with }}"},
		{"not a mapping", "- a\n- b\n", "1:1: a Salt state is a mapping of state IDs to their states, like `app-packages: {pkg.installed: ...}`"},
		{"missing colon", "app:\n  pkg.installed\n    - name: x\n", "3:1: not valid YAML once its Jinja is replaced: mapping values are not allowed in this context"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, bad := checkSalt(tc.src)
			got := ""
			if bad {
				d.File = "f"
				got = strings.TrimPrefix(d.String(), "f:")
			}
			if got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestStripJinjaKeepsLines(t *testing.T) {
	src := "{#- two\nlines #}\na: {{ b\n }}\n{% if c %}d: e{% endif %}\n"
	got, _, bad := stripJinja(src)
	if bad {
		t.Fatal("refused a well-formed template")
	}
	want := "       \n        \na: jinja\n\n          d: e           \n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestCheckExamples covers what only rendering with example values finds: an expression that
// fails, and a value the Nomad variable's type refuses.
func TestCheckExamples(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"expression fails", map[string]string{
			"manifest.hcl": `service "buggy" {
  description = "multiplies a string"

  flag "name" {
    type        = string
    default     = "x"
    pattern     = "[a-z]+"
    description = "a name"
  }

  salt {
    state  = "buggy.sls"
    pillar = { n = flag.name * 2 }
  }
}
`,
			"buggy.sls": "buggy: {}\n",
		}, "manifest.hcl:13:20: Invalid operand: Unsuitable value for left operand: a number is required. (rendering with its defaults)"},
		{"nomad type", map[string]string{
			"manifest.hcl": `service "typed" {
  description = "passes a list to a number"

  flag "nodes" {
    type        = list
    pattern     = "[a-z]+"
    description = "where it runs"
  }

  nomad {
    job       = "typed.nomad.hcl"
    variables = { count = flag.nodes }
  }
}
`,
			"typed.nomad.hcl": "variable \"count\" {\n  type    = number\n  default = 1\n}\n\njob \"typed\" {\n  meta {\n    count = var.count\n  }\n}\n",
		}, `manifest.hcl:12:19: nomad variable "count" is number in typed.nomad.hcl, but the manifest gives it ["one","two"]: number required, but have tuple`},
		{"nomad variable Eos sets", map[string]string{
			"manifest.hcl": `service "sneaky" {
  description = "points its job at another service's secrets"

  nomad {
    job       = "sneaky.nomad.hcl"
    variables = { vault_secrets_path = "secret/data/eos/production/grafana" }
  }
}
`,
			"sneaky.nomad.hcl": "variable \"vault_secrets_path\" {\n  type    = string\n  default = \"\"\n}\n\njob \"sneaky\" {\n  meta {\n    p = var.vault_secrets_path\n  }\n}\n",
		}, `manifest.hcl:6:19: nomad variable "vault_secrets_path" is set by Eos (where the service's secrets are in Vault): remove it from the manifest`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeBlueprint(t, dir, "bp", tc.files)
			diags := Check(t.Context(), []string{filepath.Join(dir, "bp")}, CheckOptions{Terraform: "unused: no .tf files"})
			if want := inFixture(filepath.Join(dir, "bp"), tc.want); len(diags) != 1 || diags[0].String() != want {
				t.Errorf("got:\n%v\nwant:\n%s", diags, want)
			}
		})
	}
}
