package catalog

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// variantFiles is a blueprint folder with a terraform part (its variant blocks given) and a
// nomad part (its variant blocks given), each file declaring the variable name.
func variantFiles(terraformVariants, nomadVariants string, jobs map[string]string) map[string]string {
	files := map[string]string{"manifest.hcl": `service "variants" {
  description = "variants per part"

  terraform {
    module = "tf/local"
    ` + terraformVariants + `
    variables = { name = service.name }
  }

  nomad {
    job = "nomad/local.nomad.hcl"
    ` + nomadVariants + `
    variables = { name = service.name }
  }
}
`}
	for _, m := range []string{"local", "production"} {
		files["tf/"+m+"/main.tf"] = "variable \"name\" {\n  type = string\n}\nresource \"terraform_data\" \"main\" {\n  input = var.name\n}\n"
	}
	for name, job := range jobs {
		files["nomad/"+name] = job
	}
	return files
}

const nomadJobWithName = "variable \"name\" {\n  type = string\n}\njob \"variants\" {\n  meta {\n    name = var.name\n  }\n}\n"

// TestRenderNomadVariants: one Request.Variant picks both parts; a part without that variant
// renders its default, and a variant neither part declares is refused.
func TestRenderNomadVariants(t *testing.T) {
	jobs := map[string]string{"local.nomad.hcl": nomadJobWithName, "prod.nomad.hcl": nomadJobWithName}
	tfProduction := "variant \"production\" {\n      module = \"tf/production\"\n    }"
	nomadProduction := "variant \"production\" {\n      job = \"nomad/prod.nomad.hcl\"\n    }"
	cases := []struct {
		name, tf, nomad, variant string
		wantTF, wantJob, wantErr string
	}{
		{"both parts have it", tfProduction, nomadProduction, "production", "production", "nomad/prod.nomad.hcl", ""},
		{"default of both", tfProduction, nomadProduction, "", "local", "nomad/local.nomad.hcl", ""},
		{"only terraform has it", tfProduction, "", "production", "production", "nomad/local.nomad.hcl", ""},
		{"only nomad has it", "", nomadProduction, "production", "local", "nomad/prod.nomad.hcl", ""},
		{"neither has it", tfProduction, nomadProduction, "aws", "", "", `variants: no Terraform variant "aws" (variants local, production)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeBlueprint(t, dir, "variants", variantFiles(tc.tf, tc.nomad, jobs))
			c, err := LoadDir(filepath.Join(dir, "variants"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := service(t, c, "variants").Render(Request{Env: "test", Variant: tc.variant})
			if tc.wantErr != "" {
				var re *RequestError
				if !errors.As(err, &re) || err.Error() != tc.wantErr {
					t.Fatalf("got %v, want RequestError %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Terraform.Variant != tc.wantTF || r.Nomad.Job != tc.wantJob {
				t.Errorf("terraform %q, nomad job %q; want %q, %q", r.Terraform.Variant, r.Nomad.Job, tc.wantTF, tc.wantJob)
			}
			if r.Nomad.Template != nomadJobWithName || r.Nomad.Vars["name"] != "variants" {
				t.Errorf("nomad template %q vars %v, want the job file with name = variants", r.Nomad.Template, r.Nomad.Vars)
			}
		})
	}
}

// TestLoadNomadVariantProblems checks the variant blocks of the nomad block: every variant's
// job must exist, hold a job block and declare the variables the manifest passes.
func TestLoadNomadVariantProblems(t *testing.T) {
	noName := "job \"variants\" {\n}\n"
	cases := []struct {
		name, nomad string
		jobs        map[string]string
		want        string
	}{
		{"missing job", "variant \"production\" {\n      job = \"nomad/missing.nomad.hcl\"\n    }",
			map[string]string{"local.nomad.hcl": nomadJobWithName},
			`manifest.hcl:13:13: nomad job "nomad/missing.nomad.hcl" does not exist in the blueprint folder`},
		{"variable missing in a variant", "variant \"production\" {\n      job = \"nomad/prod.nomad.hcl\"\n    }",
			map[string]string{"local.nomad.hcl": nomadJobWithName, "prod.nomad.hcl": noName},
			`nomad variable "name" is not declared`},
		{"local is the default", "variant \"local\" {\n      job = \"nomad/prod.nomad.hcl\"\n    }",
			map[string]string{"local.nomad.hcl": nomadJobWithName, "prod.nomad.hcl": nomadJobWithName},
			`manifest.hcl:12:13: variant "local" is the nomad block's own job; give this variant another name`},
		{"no job block", "variant \"production\" {\n      job = \"nomad/prod.nomad.hcl\"\n    }",
			map[string]string{"local.nomad.hcl": nomadJobWithName, "prod.nomad.hcl": "variable \"name\" {\n}\n"},
			`nomad/prod.nomad.hcl has no job block`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeBlueprint(t, dir, "variants", variantFiles("", tc.nomad, tc.jobs))
			_, err := LoadDir(filepath.Join(dir, "variants"))
			var diags Diagnostics
			if !errors.As(err, &diags) {
				t.Fatalf("got %v, want Diagnostics", err)
			}
			if len(diags) != 1 || !strings.Contains(diags[0].String(), tc.want) {
				t.Errorf("got:\n%v\nwant one problem containing %q", err, tc.want)
			}
		})
	}
}
