package eoslab

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const webRules = `
resource "eoslab_firewall" "web" {
  name = "web"
  rules = [
    { direction = "in", protocol = "tcp", port = "443", source_ips = ["0.0.0.0/0", "::/0"] },
    { direction = "in", protocol = "icmp" },
  ]
}
`

const webRulesWithSSH = `
resource "eoslab_firewall" "web" {
  name = "web"
  rules = [
    { direction = "in", protocol = "tcp", port = "443", source_ips = ["0.0.0.0/0", "::/0"] },
    { direction = "in", protocol = "icmp" },
    { direction = "in", protocol = "tcp", port = "22", source_ips = ["198.51.100.0/24"] },
  ]
}
`

func TestFirewallLifecycle(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	const addr = "eoslab_firewall.web"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             noObjects(root),
		Steps: []resource.TestStep{
			{
				Config: providerConfig(root, webRules),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "rules.#", "2"),
					fileHas(root, "firewall", "web", map[string]any{
						"id": fakeID(firewallRef("web")), "name": "web",
						"rules": []map[string]any{
							{"direction": "in", "protocol": "tcp", "port": "443", "source_ips": []string{"0.0.0.0/0", "::/0"}},
							{"direction": "in", "protocol": "icmp", "port": nil, "source_ips": nil},
						},
					}),
				),
			},
			{
				Config: providerConfig(root, webRulesWithSSH),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.TestCheckResourceAttr(addr, "rules.2.port", "22"),
			},
			{ // someone deletes the SSH rule by hand; the next apply restores it
				PreConfig: func() {
					editObject(t, root, "firewall", "web", func(m map[string]any) { m["rules"] = m["rules"].([]any)[:2] })
				},
				Config: providerConfig(root, webRulesWithSSH),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					m, err := readObject(objectPath(root, "firewall", "web"))
					if err != nil {
						return err
					}
					if n := len(m["rules"].([]any)); n != 3 {
						return fmt.Errorf("firewall/web.json has %d rules after apply, want 3", n)
					}
					return nil
				},
			},
			{
				ResourceName:                         addr,
				ImportState:                          true,
				ImportStateId:                        "web",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "name",
			},
		},
	})
}

func TestFirewallValidation(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tests := []struct {
		name, rule string
		want       *regexp.Regexp
	}{
		{"tcp without port", `{ direction = "in", protocol = "tcp" }`, regexp.MustCompile(`tcp rules need a port`)},
		{"icmp with port", `{ direction = "in", protocol = "icmp", port = "7" }`, regexp.MustCompile(`icmp rules have no port`)},
		{"port out of range", `{ direction = "in", protocol = "udp", port = "70000" }`, regexp.MustCompile(`port "70000" must be a port 1-65535`)},
		{"bad direction", `{ direction = "sideways", protocol = "udp", port = "53" }`, regexp.MustCompile(`must be one of: in, out`)},
		{"bad source", `{ direction = "in", protocol = "tcp", port = "any", source_ips = ["example.com"] }`, regexp.MustCompile(`"example.com" is not an IP address or CIDR prefix`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: factories,
				Steps: []resource.TestStep{{
					Config: providerConfig(root, `
resource "eoslab_firewall" "web" {
  name  = "web"
  rules = [`+tt.rule+`]
}
`),
					PlanOnly:    true,
					ExpectError: tt.want,
				}},
			})
		})
	}
}
