package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func loadEmbedded(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(Embedded())
	if err != nil {
		t.Fatalf("Load(Embedded()):\n%v", err)
	}
	return c
}

func TestLoadEmbedded(t *testing.T) {
	c := loadEmbedded(t)
	if got, want := c.ServiceNames(), []string{"authentik", "grafana", "jenkins", "nextcloud"}; !reflect.DeepEqual(got, want) {
		t.Errorf("services = %v, want %v", got, want)
	}
	if got := c.OperationVerbs(); !reflect.DeepEqual(got, []string{"resize"}) {
		t.Errorf("operation verbs = %v, want [resize]", got)
	}
	op, ok := c.Operation("resize", "lvm")
	if !ok {
		t.Fatal("no operation resize lvm")
	}
	if op.Kind != KindOperation || op.Salt == nil || op.Terraform != nil || op.Nomad != nil {
		t.Errorf("resize lvm: kind %s, parts salt=%v terraform=%v nomad=%v; want a Salt-only operation", op.Kind, op.Salt != nil, op.Terraform != nil, op.Nomad != nil)
	}
	if names := []string{op.Args[0].Name, op.Args[1].Name}; !reflect.DeepEqual(names, []string{"name", "size"}) || op.Args[1].Type != Size {
		t.Errorf("resize lvm args = %+v, want name string, size size", op.Args)
	}

	nc, _ := c.Service("nextcloud")
	if got, want := nc.FlagNames(), []string{"sso", "domain", "storage", "distributed-storage", "admin-password"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nextcloud flags = %v, want %v", got, want)
	}
	if f, _ := nc.Flag("admin-password"); !f.Secret || f.Default != nil {
		t.Errorf("admin-password = %+v, want a secret flag without default", f)
	}
	if f, _ := nc.Flag("storage"); f.Default == nil || f.Default.Bytes != 100<<30 {
		t.Errorf("storage default = %+v, want 100G", f.Default)
	}
	if nc.Source != "embedded:nextcloud" {
		t.Errorf("nextcloud source = %q, want embedded:nextcloud", nc.Source)
	}
	gr, _ := c.Service("grafana")
	if f, _ := gr.Flag("port"); f.Type != Port || f.Default == nil || f.Default.Int != 3000 || f.Allowed() != "1–65535" {
		t.Errorf("grafana --port = %+v, want a port (1–65535) default 3000", f)
	}
	jk, _ := c.Service("jenkins")
	if f, _ := jk.Flag("executors"); f.Type != Int || f.Default == nil || f.Default.Int != 2 {
		t.Errorf("jenkins --executors = %+v, want int default 2", f)
	}
	ak, _ := c.Service("authentik")
	if f, _ := ak.Flag("frontend-for"); f.Type != Service || f.Default != nil {
		t.Errorf("authentik --frontend-for = %+v, want a service flag without default", f)
	}
	for _, b := range append(c.Services(), op) {
		if b.Description == "" {
			t.Errorf("%s has no description", b.label())
		}
		for _, f := range b.Flags {
			if f.Description == "" {
				t.Errorf("%s --%s has no description", b.label(), f.Name)
			}
		}
	}
}

// TestLoadBroken loads each broken blueprint and expects exactly one problem, at a position.
func TestLoadBroken(t *testing.T) {
	cases := []struct{ dir, want string }{
		{"bad-type", `5:19: unknown type "sizes"; use one of bool, int, port, string, size, duration, hostname, path, list, enum, service`},
		{"bad-default", `6:19: default for flag "port" does not fit its type int: "http" is not a whole number`},
		{"unknown-flag-ref", `10:15: unknown flag "ssl" in flag.ssl: unknownref has flags sso`},
		{"unknown-dependency", `4:3: requires "authentic", but the catalog has no such service (services: authentik, grafana, jenkins, nextcloud, unknowndep)`},
		{"missing-state-file", `5:14: salt state "salt/missing.sls" does not exist in the blueprint folder`},
		{"duplicate-flag", `9:3: flag "domain" is declared twice (first at line 4)`},
		{"missing-description", `4:18: Missing required argument: The argument "description" is required, but no definition was found.`},
		{"unknown-attribute", `7:5: Unsupported argument: An argument named "hidden" is not expected here.`},
		{"enum-default", `7:19: default "medium" of flag "tier" is not one of its values (small, large)`},
		{"secret-default", `7:5: secret flag "admin-password" cannot have a default: Eos generates its value into Vault`},
		{"secret-ref", `11:15: flag "admin-password" is secret: its value never reaches templates; declare a secret block and read it from Vault`},
		{"bad-flag-name", `4:8: flag name "adminPassword" must be lowercase words joined by hyphens, like distributed-storage`},
		{"empty-operation", `1:1: operation restart nothing has no salt, terraform or nomad block: it would do nothing`},
		{"undeclared-variable", `8:7: nomad variable "domain" is not declared in nomad/undeclared.nomad.hcl (declared: env)`},
		{"gib-of-hostname", `10:30: gib() takes a size, but flag.domain is a hostname`},
	}
	entries, err := os.ReadDir("testdata/broken")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(cases) {
		t.Errorf("testdata/broken has %d cases, the table %d: keep them in step", len(entries), len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "broken", tc.dir)
			c, err := LoadDir(dir)
			if c != nil {
				t.Errorf("LoadDir returned a catalog for a broken blueprint")
			}
			var diags Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("error %v (%T) is not Diagnostics", err, err)
			}
			want := filepath.Join(dir, "manifest.hcl") + ":" + tc.want
			if len(diags) != 1 || diags[0].String() != want {
				t.Errorf("got:\n%v\nwant:\n%s", err, want)
			}
		})
	}
}

func TestLoadCycle(t *testing.T) {
	_, err := Load(Dir("testdata/cycle"))
	want := filepath.Join("testdata", "cycle", "beta", "manifest.hcl") + ":4:3: dependency cycle: alpha → beta → alpha"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// writeBlueprint writes files (relative path → content) into dir/name.
func writeBlueprint(t *testing.T, dir, name string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, name, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const gitlabManifest = `service "gitlab" {
  description = "git hosting"

  flag "sso" {
    type        = bool
    description = "sign in through authentik"
  }

  requires "authentik" {
    when    = flag.sso
    flags   = { frontend-for = service.name }
    because = "--sso"
  }

  salt {
    state  = "gitlab.sls"
    pillar = { name = service.name, env = env }
  }
}
`

func TestLoadOperatorDirectory(t *testing.T) {
	dir := t.TempDir()
	writeBlueprint(t, dir, "gitlab", map[string]string{"manifest.hcl": gitlabManifest, "gitlab.sls": "gitlab: {}\n"})
	writeBlueprint(t, dir, ".git", map[string]string{"HEAD": "ref: refs/heads/main\n"})
	c, err := Load(Embedded(), Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.ServiceNames(), []string{"authentik", "gitlab", "grafana", "jenkins", "nextcloud"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("services = %v, want %v", got, want)
	}
	gl, _ := c.Service("gitlab")
	if want := filepath.Join(dir, "gitlab"); gl.Source != want {
		t.Errorf("source = %q, want %q", gl.Source, want)
	}
	rs, err := c.Resolve(gl, Request{Flags: map[string]Value{"sso": BoolValue(true)}, Env: "staging"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || rs[0].Blueprint.Name != "authentik" || rs[1].Salt.Pillar["env"] != "staging" {
		t.Errorf("resolved %d blueprints, first %s; want authentik then gitlab with env staging", len(rs), rs[0].Blueprint.Name)
	}

	// The same folder checked alone resolves its dependency against the shipped services.
	single, err := LoadDir(filepath.Join(dir, "gitlab"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := single.Service("gitlab"); !ok {
		t.Error("LoadDir: gitlab missing from the catalog")
	}
}

func TestLoadDuplicateAcrossSources(t *testing.T) {
	dir := t.TempDir()
	manifest := strings.Replace(gitlabManifest, `service "gitlab"`, `service "grafana"`, 1)
	writeBlueprint(t, dir, "my-grafana", map[string]string{"manifest.hcl": manifest, "gitlab.sls": "x: {}\n"})
	_, err := Load(Embedded(), Dir(dir))
	want := filepath.Join(dir, "my-grafana", "manifest.hcl") + `:1:1: service "grafana" is defined twice: in embedded:grafana/manifest.hcl and in ` +
		filepath.Join(dir, "my-grafana", "manifest.hcl") + "; rename one of them"
	if err == nil || err.Error() != want {
		t.Errorf("got:\n%v\nwant:\n%s", err, want)
	}
}

func TestLoadDirNotABlueprint(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadDir(dir)
	var diags Diagnostics
	if !errors.As(err, &diags) || !strings.HasPrefix(diags[0].String(), filepath.Join(dir, "manifest.hcl")+": not a blueprint folder") {
		t.Errorf("got %v, want a diagnostic naming the missing manifest", err)
	}
}

func TestLoadReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	writeBlueprint(t, dir, "many", map[string]string{"manifest.hcl": `service "many" {
  description = "three problems"

  flag "a" {
    type        = bogus
    description = "one"
  }
  flag "b" {
    type        = int
    default     = "x"
    description = "two"
  }
  requires "nothing" {
    because = "three"
  }
}
`})
	_, err := Load(Dir(dir))
	var diags Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("got %v, want Diagnostics", err)
	}
	var lines []int
	for _, d := range diags {
		lines = append(lines, d.Line)
	}
	if !reflect.DeepEqual(lines, []int{5, 10, 13}) {
		t.Errorf("problems on lines %v, want [5 10 13]:\n%v", lines, err)
	}
	if n := strings.Count(err.Error(), "\n"); n != 2 {
		t.Errorf("error has %d lines, want one per problem:\n%v", n+1, err)
	}
}
