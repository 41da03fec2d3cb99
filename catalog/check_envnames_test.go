package catalog

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckEnvNamesSaltAndNomad: a Salt path, a logical volume's name and a Nomad service name
// that forget the environment are refused, each naming the blueprint, the variant and the
// value; the same names with ${env} (and a Nomad name built from NOMAD_JOB_NAME, which Eos
// makes SERVICE--ENV) pass. Terraform names are covered by testdata/check/env-names-forgotten.
func TestCheckEnvNamesSaltAndNomad(t *testing.T) {
	job := func(service string) string {
		return `variable "env" {
  type = string
}

job "app" {
  group "app" {
    service {
      name = ` + service + `
    }
    task "app" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
`
	}
	manifest := func(name, suffix string) string {
		return `service "` + name + `" {
  description = "a check fixture"

  salt {
    state  = "salt/app.sls"
    pillar = { lv_name = "data-${service.name}` + suffix + `", mount_point = "/srv/${service.name}` + suffix + `", fs_type = "xfs" }
  }
  nomad {
    job       = "nomad/app.nomad.hcl"
    variables = { env = env }
  }
}
`
	}
	sls := "{%- set mount_point = salt['pillar.get']('mount_point') %}\n\napp-config:\n  file.managed:\n    - name: {{ (mount_point ~ '/app.conf') | yaml_dquote }}\n"
	dir := t.TempDir()
	writeBlueprint(t, dir, "forgets", map[string]string{
		"manifest.hcl":        manifest("forgets", ""),
		"salt/app.sls":        sls,
		"nomad/app.nomad.hcl": job(`"forgets-web"`),
	})
	writeBlueprint(t, dir, "remembers", map[string]string{
		"manifest.hcl":        manifest("remembers", "-${env}"),
		"salt/app.sls":        sls,
		"nomad/app.nomad.hcl": job(`"${NOMAD_JOB_NAME}-web"`),
	})
	diags := Check(t.Context(), []string{filepath.Join(dir, "forgets"), filepath.Join(dir, "remembers")}, CheckOptions{Terraform: terraformBinary(t)})
	m := filepath.Join(dir, "forgets", "manifest.hcl")
	want := []string{
		m + `:6:16: forgets (local): salt pillar lv_name "data-forgets" is the same in every environment; include the environment (${env})`,
		m + `:6:50: forgets (local): salt pillar mount_point "/srv/forgets" is the same in every environment; include the environment (${env})`,
		filepath.Join(dir, "forgets", "nomad", "app.nomad.hcl") + `:8:7: forgets (local): nomad service "forgets-web" is the same in every environment; include the environment (${env})`,
	}
	if got := diags.Error(); got != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}
