package catalog

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRenderVariants(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	if got := nc.VariantNames(); !reflect.DeepEqual(got, []string{"local", "production"}) {
		t.Errorf("variants = %v, want [local production]", got)
	}
	cases := []struct {
		variant, want, resource, holds string
	}{
		{"", "local", "eoslab_server", "eoslab_volume.data"},
		{"local", "local", "eoslab_server", "eoslab_volume.data"},
		{"production", "production", "hcloud_server", "hcloud_volume.data"},
	}
	for _, tc := range cases {
		t.Run(tc.want+"/"+tc.variant, func(t *testing.T) {
			r, err := nc.Render(Request{Env: "production", Variant: tc.variant})
			if err != nil {
				t.Fatal(err)
			}
			if r.Terraform.Variant != tc.want {
				t.Errorf("variant = %q, want %q", r.Terraform.Variant, tc.want)
			}
			if !reflect.DeepEqual(r.Terraform.HoldsData, []string{tc.holds}) {
				t.Errorf("holds data = %v, want the variant's own volume %s", r.Terraform.HoldsData, tc.holds)
			}
			if !strings.Contains(r.Terraform.Files["main.tf"], `resource "`+tc.resource+`" "main"`) {
				t.Errorf("main.tf does not declare %s.main:\n%s", tc.resource, r.Terraform.Files["main.tf"])
			}
			if got := sortedKeys(r.Terraform.Vars); !reflect.DeepEqual(got, []string{"distributed_storage", "domain", "env", "name", "volume_gb"}) {
				t.Errorf("vars = %v: every variant gets the same variables", got)
			}
		})
	}
}

// A Salt variant names the paths on the minion that hold data, evaluated like its pillar; the
// local variant, which touches no volume, names none.
func TestRenderSaltHoldsData(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	for variant, want := range map[string][]string{
		"local":      nil,
		"production": {"/srv/nextcloud-production", "/dev/vg0/data-nextcloud-production"},
	} {
		r, err := nc.Render(Request{Env: "production", Variant: variant})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Salt.HoldsData, want) {
			t.Errorf("%s: salt holds data = %v, want %v", variant, r.Salt.HoldsData, want)
		}
	}
}

func TestRenderUnknownVariant(t *testing.T) {
	c := loadEmbedded(t)
	_, err := c.Resolve(service(t, c, "grafana"), Request{Variant: "aws"})
	var re *RequestError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *RequestError", err, err)
	}
	if want := `grafana: no Terraform variant "aws" (variants local, production)`; err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
}

func TestResolvePassesTheVariant(t *testing.T) {
	c := loadEmbedded(t)
	rs, err := c.Resolve(service(t, c, "nextcloud"), Request{Flags: map[string]Value{"sso": BoolValue(true)}, Variant: "production"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Terraform.Variant != "production" {
			t.Errorf("%s rendered variant %q, want production", r.Blueprint.Name, r.Terraform.Variant)
		}
	}
	op, _ := c.Operation("resize", "lvm")
	size, _ := ParseSize("+5G")
	if _, err := op.Render(Request{Args: []Value{StringValue(String, "data"), size}, Variant: "production"}); err != nil {
		t.Errorf("a blueprint without a terraform part refused a variant: %v", err)
	}
}

// TestLoadVariantProblems checks the variant blocks of the terraform block; each case expects
// one problem in manifest.hcl.
func TestLoadVariantProblems(t *testing.T) {
	module := map[string]string{
		"variables.tf": "variable \"name\" {\n  type = string\n}\n",
		"main.tf":      "resource \"terraform_data\" \"main\" {\n  input = var.name\n}\n",
	}
	cases := []struct {
		name, terraform string
		modules         []string
		want            string
	}{
		{"local is the default", `module = "tf/a"
    variant "local" {
      module = "tf/b"
    }`, []string{"a", "b"}, `12:13: variant "local" is the terraform block's own module; give this variant another name`},
		{"declared twice", `module = "tf/a"
    variant "prod" {
      module = "tf/b"
    }
    variant "prod" {
      module = "tf/b"
    }`, []string{"a", "b"}, `15:5: variant "prod" is declared twice (first at line 12)`},
		{"missing module", `module = "tf/a"
    variant "prod" {
      module = "tf/missing"
    }`, []string{"a"}, `13:16: terraform module "tf/missing" is not a directory in the blueprint folder`},
		{"bad name", `module = "tf/a"
    variant "Prod" {
      module = "tf/b"
    }`, []string{"a", "b"}, `12:13: variant name "Prod" must be lowercase words joined by hyphens, like distributed-storage`},
		{"no module", `module = "tf/a"
    variant "prod" {
    }`, []string{"a"}, `12:20: Missing required argument: The argument "module" is required, but no definition was found.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"manifest.hcl": `service "variants" {
  description = "terraform variants"

  flag "tier" {
    type        = string
    default     = "x"
    description = "a flag"
  }

  terraform {
    ` + tc.terraform + `
    variables = { name = service.name }
  }
}
`}
			for _, m := range tc.modules {
				for name, content := range module {
					files["tf/"+m+"/"+name] = content
				}
			}
			dir := t.TempDir()
			writeBlueprint(t, dir, "variants", files)
			_, err := LoadDir(filepath.Join(dir, "variants"))
			var diags Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("got %v, want Diagnostics", err)
			}
			want := filepath.Join(dir, "variants", "manifest.hcl") + ":" + tc.want
			if len(diags) != 1 || diags[0].String() != want {
				t.Errorf("got:\n%v\nwant:\n%s", err, want)
			}
		})
	}
}

// TestVariantsOfHandBuiltBlueprint: a blueprint built without Load (New) and without Variants
// renders its terraform part's module (and its nomad part's job) as the default variant.
func TestVariantsOfHandBuiltBlueprint(t *testing.T) {
	nc := service(t, loadEmbedded(t), "nextcloud")
	bare := *nc
	bare.Variants, bare.NomadVariants, bare.SaltVariants = nil, nil, nil
	if got := bare.VariantNames(); !reflect.DeepEqual(got, []string{"local"}) {
		t.Errorf("variants = %v, want [local]", got)
	}
	r, err := bare.Render(Request{Env: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Terraform.Variant != "local" || !strings.Contains(r.Terraform.Files["main.tf"], "eoslab_server") {
		t.Errorf("rendered variant %q with main.tf %q, want the module of the terraform part", r.Terraform.Variant, r.Terraform.Files["main.tf"])
	}
	if _, err := bare.Render(Request{Variant: "production"}); err == nil {
		t.Error("rendered a variant the blueprint does not declare")
	}
}
