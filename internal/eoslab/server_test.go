package eoslab

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func serverConfig(root, name, size, image string) string {
	return providerConfig(root, fmt.Sprintf(`
resource "eoslab_server" "web" {
  name   = %q
  size   = %q
  image  = %q
  labels = { role = "proxy" }
}
`, name, size, image))
}

func TestServerLifecycleAndDrift(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	const addr = "eoslab_server.web"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             noObjects(root),
		Steps: []resource.TestStep{
			{ // create
				Config: serverConfig(root, "proxy-nextcloud", "small", "debian-12"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(fakeID(serverRef("proxy-nextcloud")))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4_address"), knownvalue.StringExact(fakeIPv4("proxy-nextcloud"))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("running")),
				},
				Check: fileHas(root, "server", "proxy-nextcloud", map[string]any{
					"id": fakeID(serverRef("proxy-nextcloud")), "name": "proxy-nextcloud", "size": "small",
					"image": "debian-12", "labels": map[string]string{"role": "proxy"},
					"ipv4_address": fakeIPv4("proxy-nextcloud"), "status": "running",
				}),
			},
			{ // resize in place
				Config: serverConfig(root, "proxy-nextcloud", "large", "debian-12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: fileHas(root, "server", "proxy-nextcloud", map[string]any{"size": "large"}),
			},
			{ // someone resizes it by hand: a refresh reads the drift into state
				PreConfig: func() {
					editObject(t, root, "server", "proxy-nextcloud", func(m map[string]any) { m["size"] = "small" })
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              resource.TestCheckResourceAttr(addr, "size", "small"),
				RefreshPlanChecks: resource.RefreshPlanChecks{PostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("size"), knownvalue.StringExact("large")),
				}},
			},
			{ // a normal apply puts it back
				Config: serverConfig(root, "proxy-nextcloud", "large", "debian-12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: fileHas(root, "server", "proxy-nextcloud", map[string]any{"size": "large"}),
			},
			{ // someone deletes it: Terraform plans to create it again
				PreConfig: func() { removeObject(t, root, "server", "proxy-nextcloud") },
				Config:    serverConfig(root, "proxy-nextcloud", "large", "debian-12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
				Check: fileHas(root, "server", "proxy-nextcloud", map[string]any{"size": "large", "status": "running"}),
			},
			{ // a new name replaces the server
				Config: serverConfig(root, "proxy-cloud", "large", "debian-12"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					fileAbsent(root, "server", "proxy-nextcloud"),
					fileHas(root, "server", "proxy-cloud", map[string]any{"name": "proxy-cloud", "id": fakeID(serverRef("proxy-cloud"))}),
				),
			},
			{ // so does a new image
				Config: serverConfig(root, "proxy-cloud", "large", "ubuntu-24.04"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: fileHas(root, "server", "proxy-cloud", map[string]any{"image": "ubuntu-24.04"}),
			},
			{ // import by name
				ResourceName:                         addr,
				ImportState:                          true,
				ImportStateId:                        "proxy-cloud",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "name",
			},
		},
	})
}

func TestServerValidation(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tests := []struct {
		name, server, size, image string
		want                      *regexp.Regexp
	}{
		{"unknown size", "web", "huge", "debian-12",
			regexp.MustCompile(`size is "huge"; it must be one of: small, medium, large, xlarge`)},
		{"unknown image", "web", "small", "windows-11",
			regexp.MustCompile(`image is "windows-11"; it must be one of: debian-11, debian-12`)},
		{"bad name", "Web_1", "small", "debian-12",
			regexp.MustCompile(`name is "Web_1"; it must be 1-63 lowercase letters`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: factories,
				Steps: []resource.TestStep{{
					Config:      serverConfig(root, tt.server, tt.size, tt.image),
					PlanOnly:    true,
					ExpectError: tt.want,
				}},
			})
		})
	}
}
