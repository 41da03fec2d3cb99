package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaffoldChecksAndDeploys scaffolds a blueprint, checks it as `eos catalog check` would,
// renders its Salt state, and applies its local variant on eoslab.
func TestScaffoldChecksAndDeploys(t *testing.T) {
	bin := terraformBinary(t)
	dir := t.TempDir()
	path, err := Scaffold(dir, "team-wiki")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "team-wiki") {
		t.Errorf("path = %s, want %s", path, filepath.Join(dir, "team-wiki"))
	}
	if diags := Check(t.Context(), []string{path}, CheckOptions{Terraform: bin}); len(diags) > 0 {
		t.Fatalf("the scaffold does not pass the check:\n%v", diags)
	}
	c, err := LoadDir(path)
	if err != nil {
		t.Fatal(err)
	}
	b := service(t, c, "team-wiki")
	if got := b.FlagNames(); strings.Join(got, " ") != "domain storage port" {
		t.Errorf("flags = %v, want domain storage port", got)
	}
	r, err := b.Render(Request{Env: "local"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Nomad == nil || !strings.Contains(r.Nomad.Template, `job "team-wiki"`) {
		t.Error("the Nomad job is not named after the service")
	}
	// The local variant only writes files under the minion's data directory (checked in
	// full by TestShippedLocalSaltStatesOnlyWriteUnderTheDataDir); production makes the volume.
	if !strings.HasSuffix(r.Salt.State, "/local.sls") {
		t.Errorf("the local Salt state is %s, want salt/local.sls: a local plan must not install packages as root", r.Salt.State)
	}
	prod, err := b.Render(Request{Env: "production", Variant: "production"})
	if err != nil {
		t.Fatal(err)
	}
	states := renderSLS(t, prod.Salt.Text, prod.Salt.Pillar)
	if lv := states["team-wiki-data-volume"]["lvm.lv_present"]; stateArg(lv, "name") != "data-team-wiki-production" {
		t.Errorf("production lvm.lv_present = %v, want data-team-wiki-production", lv)
	}

	module := writeModule(t, r.Terraform)
	env := terraformEnv(t)
	ctx := t.Context()
	terraform(ctx, t, bin, module, env, "init", "-input=false", "-backend=false", "-no-color")
	terraform(ctx, t, bin, module, env, "apply", "-input=false", "-auto-approve", "-no-color")
	var outputs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal(terraform(ctx, t, bin, module, env, "output", "-json"), &outputs); err != nil {
		t.Fatal(err)
	}
	if outputs["server_name"].Value != "team-wiki-local" || outputs["dns_name"].Value != "team-wiki.local.test" {
		t.Errorf("outputs = %+v, want server team-wiki-local and DNS name team-wiki.local.test", outputs)
	}
}

func TestScaffoldRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "taken"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, want string }{
		{"Wiki", `blueprint name "Wiki" must be lowercase words joined by hyphens, at most 40 characters, like team-wiki`},
		{"team_wiki", `blueprint name "team_wiki" must be lowercase words joined by hyphens, at most 40 characters, like team-wiki`},
		{"", `blueprint name "" must be lowercase words joined by hyphens, at most 40 characters, like team-wiki`},
		{"../up", `blueprint name "../up" must be lowercase words joined by hyphens, at most 40 characters, like team-wiki`},
		{strings.Repeat("a", 41), `blueprint name "` + strings.Repeat("a", 41) + `" must be lowercase words joined by hyphens, at most 40 characters, like team-wiki`},
		{"nextcloud", "nextcloud is a shipped blueprint; give yours another name"},
		{"taken", filepath.Join(dir, "taken") + " already exists; choose another name or directory"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Scaffold(dir, tc.name)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
	entries, err := os.ReadDir(filepath.Join(dir, "taken"))
	if err != nil || len(entries) != 0 {
		t.Errorf("the existing folder was written to: %v %v", entries, err)
	}
}
