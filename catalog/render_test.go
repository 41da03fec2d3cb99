package catalog

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func service(t *testing.T, c *Catalog, name string) *Blueprint {
	t.Helper()
	b, ok := c.Service(name)
	if !ok {
		t.Fatalf("no service %s", name)
	}
	return b
}

func TestRenderNextcloudSSO(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	r, err := nc.Render(Request{Flags: map[string]Value{"sso": BoolValue(true)}, Env: "production"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Required{{Service: "authentik", Flags: map[string]Value{"frontend-for": StringValue(String, "nextcloud")}, Because: "--sso"}}
	if !reflect.DeepEqual(r.Requires, want) {
		t.Errorf("requires = %+v, want %+v", r.Requires, want)
	}

	without, err := nc.Render(Request{Env: "production"})
	if err != nil {
		t.Fatal(err)
	}
	if len(without.Requires) != 0 {
		t.Errorf("without --sso requires %+v, want nothing", without.Requires)
	}
}

// TestRenderTypedData checks that each layer gets typed values, and that they survive the trip
// to JSON (terraform.tfvars.json) with their types.
func TestRenderTypedData(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	storage, _ := ParseSize("1.5T")
	domain, _ := ParseHostname("Cloud.Example.org")
	r, err := nc.Render(Request{
		Flags: map[string]Value{"sso": BoolValue(true), "storage": storage, "domain": domain},
		Env:   "staging",
	})
	if err != nil {
		t.Fatal(err)
	}
	tfvars, err := json.Marshal(r.Terraform.Vars)
	if err != nil {
		t.Fatal(err)
	}
	wantTF := `{"distributed_storage":false,"domain":"cloud.example.org","env":"staging","name":"nextcloud","volume_gb":1536}`
	if string(tfvars) != wantTF {
		t.Errorf("tfvars = %s\nwant     %s", tfvars, wantTF)
	}
	if _, ok := r.Terraform.Vars["volume_gb"].(int64); !ok {
		t.Errorf("volume_gb is %T, want int64", r.Terraform.Vars["volume_gb"])
	}
	if sso, ok := r.Nomad.Vars["sso"].(bool); !ok || !sso {
		t.Errorf("nomad sso = %#v, want bool true", r.Nomad.Vars["sso"])
	}
	if got := r.Salt.Pillar["lv_size"]; got != "1.5T" {
		t.Errorf("pillar lv_size = %#v, want \"1.5T\"", got)
	}
	if got, ok := r.Nomad.Vars[VaultSecretsPathVar]; ok {
		t.Errorf("nomad %s = %#v from the manifest; Eos sets it", VaultSecretsPathVar, got)
	}
	if r.Terraform.Variant != "local" {
		t.Errorf("terraform variant = %q, want local (the default)", r.Terraform.Variant)
	}
	for _, name := range []string{"main.tf", "variables.tf", "outputs.tf"} {
		if !strings.Contains(r.Terraform.Files[name], "eoslab_server.main") && name != "variables.tf" {
			t.Errorf("module file %s missing or without eoslab_server.main: %q", name, r.Terraform.Files[name])
		}
		if _, ok := r.Terraform.Files[name]; !ok {
			t.Errorf("module file %s missing; have %v", name, sortedKeys(r.Terraform.Files))
		}
	}
	if !strings.Contains(r.Salt.Text, "nextcloud-data-volume") || r.Salt.State != "salt/local.sls" || r.Salt.Variant != "local" {
		t.Errorf("salt state %s (variant %s) not copied in, want the local state", r.Salt.State, r.Salt.Variant)
	}
	if !strings.Contains(r.Nomad.Template, `job "nextcloud"`) {
		t.Error("nomad job not copied in")
	}
}

func TestRenderValues(t *testing.T) {
	c := loadEmbedded(t)
	r, err := service(t, c, "nextcloud").Render(Request{Env: "local"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for name, v := range r.Values {
		got[name] = string(v.Type) + " " + v.Text
	}
	want := map[string]string{
		"sso":                 "bool false",
		"distributed-storage": "bool false",
		"storage":             "size 100G",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("values = %v, want %v (the secret admin-password must never appear)", got, want)
	}

	// An unset flag without a default is null in expressions and absent from Values.
	ak, err := service(t, c, "authentik").Render(Request{Env: "local"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ak.Values["frontend-for"]; ok {
		t.Error("unset --frontend-for appears in Values")
	}
	if got := ak.Terraform.Vars["frontend_for"]; got != "" {
		t.Errorf("frontend_for = %#v, want \"\" from coalesce", got)
	}
}

func TestRenderOperation(t *testing.T) {
	op, _ := loadEmbedded(t).Operation("resize", "lvm")
	size, _ := ParseSize("+50G")
	r, err := op.Render(Request{Args: []Value{StringValue(String, "data-nextcloud"), size}, Env: "production"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"lv_name": "data-nextcloud", "vg_name": "vg0", "size": "+50G"}
	if !reflect.DeepEqual(r.Salt.Pillar, want) {
		t.Errorf("pillar = %v, want %v", r.Salt.Pillar, want)
	}
	if r.Values["size"].Bytes != 50<<30 || !r.Values["size"].Relative {
		t.Errorf("size value = %+v, want relative 50 GiB", r.Values["size"])
	}
	if r.Terraform != nil || r.Nomad != nil {
		t.Error("a Salt-only operation rendered other layers")
	}
}

func TestRenderRequestErrors(t *testing.T) {
	c := loadEmbedded(t)
	op, _ := c.Operation("resize", "lvm")
	cases := []struct {
		name string
		b    *Blueprint
		req  Request
		want string
	}{
		{"unknown flag", service(t, c, "grafana"), Request{Flags: map[string]Value{"ssl": BoolValue(true)}},
			"grafana: no flag --ssl (flags port, domain)"},
		{"secret flag typed", service(t, c, "nextcloud"), Request{Flags: map[string]Value{"admin-password": StringValue(String, "hunter2")}},
			"nextcloud: --admin-password is secret and never typed in chat: Eos generates it and keeps it in Vault"},
		{"wrong type", service(t, c, "grafana"), Request{Flags: map[string]Value{"port": StringValue(String, "http")}},
			`grafana: --port: "http" is not a whole number`},
		{"unknown service", service(t, c, "authentik"), Request{Flags: map[string]Value{"frontend-for": StringValue(Service, "gitea")}},
			`authentik: --frontend-for: no service "gitea" in the catalog (authentik, grafana, jenkins, nextcloud)`},
		{"missing argument", op, Request{Args: []Value{StringValue(String, "data")}},
			"resize lvm: takes 2 arguments (resize lvm NAME SIZE), got 1"},
		{"bad argument", op, Request{Args: []Value{StringValue(String, "data"), StringValue(String, "huge")}},
			`resize lvm: SIZE: "huge" is not a size: write a number and a unit (K, M, G, T, or GiB, GB, ...), like 100G or +50G`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Resolve(tc.b, tc.req)
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("error %v (%T) is not a *RequestError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
		})
	}
}

func TestRenderSecretNeverInOutput(t *testing.T) {
	// The secret's value must not leak even if a caller bypasses the chat refusal: Render
	// refuses it, so nothing rendered can contain it.
	nc := service(t, loadEmbedded(t), "nextcloud")
	r, err := nc.Render(Request{Flags: map[string]Value{"admin-password": StringValue(String, "hunter2")}})
	if err == nil || r != nil {
		t.Fatalf("Render accepted a secret flag: %+v", r)
	}
	if strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error repeats the secret: %v", err)
	}
}

// TestRenderBlueprintBug checks that an expression failing at render time is reported as the
// blueprint's fault, with its folder and position, not as the person's mistake.
func TestRenderBlueprintBug(t *testing.T) {
	dir := t.TempDir()
	writeBlueprint(t, dir, "buggy", map[string]string{
		"manifest.hcl": `service "buggy" {
  description = "divides a string"

  flag "name" {
    type        = string
    default     = "x"
    description = "a name"
  }

  salt {
    state  = "buggy.sls"
    pillar = { n = flag.name * 2 }
  }
}
`,
		"buggy.sls": "buggy: {}\n",
	})
	c, err := Load(Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	_, err = service(t, c, "buggy").Render(Request{})
	var re *RequestError
	if err == nil || errors.As(err, &re) {
		t.Fatalf("got %v, want a blueprint error", err)
	}
	var diags Diagnostics
	if !errors.As(err, &diags) || diags[0].Line != 12 || !strings.Contains(err.Error(), "rendering blueprint "+filepath.Join(dir, "buggy")) {
		t.Errorf("got %v, want the blueprint's folder and line 12", err)
	}
}

func TestRenderConcurrently(t *testing.T) {
	c := loadEmbedded(t)
	nc := service(t, c, "nextcloud")
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			rs, err := c.Resolve(nc, Request{Flags: map[string]Value{"sso": BoolValue(i%2 == 0)}, Env: "production"})
			if err == nil && len(rs) != 2-i%2 {
				err = errors.New("wrong number of rendered blueprints")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
