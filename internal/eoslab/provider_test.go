package eoslab

import (
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

const oneServer = `
resource "eoslab_server" "web" {
  name  = "boom"
  size  = "small"
  image = "debian-12"
}
`

func TestProviderConfiguration(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		name     string
		envRoot  string
		envFail  string
		provider string
		want     *regexp.Regexp
	}{
		{"no root anywhere", "", "", `provider "eoslab" {}`,
			regexp.MustCompile(`eoslab root directory is not set`)},
		{"bad delay", "", "", fmt.Sprintf(`provider "eoslab" {
  root  = %q
  delay = "soon"
}`, root), regexp.MustCompile(`delay "soon" is not a non-negative Go duration`)},
		{"fail_on in the provider block", "", "", fmt.Sprintf(`provider "eoslab" {
  root    = %q
  fail_on = ["other", "boom"]
}`, root), regexp.MustCompile(`eoslab simulated failure: cannot create server "boom"`)},
		{"fail_on from the environment, root too", root, "x, server/boom", `provider "eoslab" {}`,
			regexp.MustCompile(`"boom" is listed in fail_on`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvRoot, tt.envRoot)
			t.Setenv(EnvFailOn, tt.envFail)
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: factories,
				Steps: []resource.TestStep{{
					Config:      tt.provider + "\n" + oneServer,
					ExpectError: tt.want,
				}},
			})
			if _, err := os.Stat(objectPath(root, "server", "boom")); err == nil {
				t.Errorf("a failed create left server/boom.json behind")
			}
		})
	}
}

func TestFailOnUpdateKeepsOldObject(t *testing.T) {
	root := t.TempDir()
	cfg := func(failOn, size string) string {
		return fmt.Sprintf(`provider "eoslab" {
  root    = %q
  fail_on = [%s]
}
resource "eoslab_server" "web" {
  name  = "boom"
  size  = %q
  image = "debian-12"
}
`, root, failOn, size)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             noObjects(root),
		Steps: []resource.TestStep{
			{Config: cfg("", "small"), Check: fileHas(root, "server", "boom", map[string]any{"size": "small"})},
			{Config: cfg(`"boom"`, "large"), ExpectError: regexp.MustCompile(`simulated failure: cannot update server "boom"`)},
			{Config: cfg("", "small"), PlanOnly: true, Check: fileHas(root, "server", "boom", map[string]any{"size": "small"})},
		},
	})
}

func TestCreateRefusesAnExistingObject(t *testing.T) {
	root := t.TempDir()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{{
			PreConfig: func() {
				if err := os.MkdirAll(root+"/server", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(objectPath(root, "server", "boom"), []byte(`{"name":"boom"}`), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			Config:      providerConfig(root, oneServer),
			ExpectError: regexp.MustCompile(`eoslab server "boom" already exists`),
		}},
	})
}
