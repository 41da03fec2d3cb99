package eoslab

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

func dnsConfig(root, name, typ, value, ttl string) string {
	return providerConfig(root, fmt.Sprintf(`
resource "eoslab_server" "proxy" {
  name  = "proxy"
  size  = "small"
  image = "debian-12"
}

resource "eoslab_dns_record" "cloud" {
  zone  = "example.com"
  name  = %q
  type  = %q
  value = %s
  %s
}
`, name, typ, value, ttl))
}

func TestDNSRecordLifecycle(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	const addr = "eoslab_dns_record.cloud"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             noObjects(root),
		Steps: []resource.TestStep{
			{
				Config: dnsConfig(root, "cloud", "A", "eoslab_server.proxy.ipv4_address", ""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "fqdn", "cloud.example.com"),
					resource.TestCheckResourceAttr(addr, "ttl", "300"),
					fileHas(root, "dns_record", "cloud.example.com_A", map[string]any{
						"zone": "example.com", "name": "cloud", "type": "A", "value": fakeIPv4("proxy"),
						"ttl": 300, "fqdn": "cloud.example.com",
					}),
				),
			},
			{
				Config: dnsConfig(root, "cloud", "A", `"203.0.113.77"`, "ttl = 60"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: fileHas(root, "dns_record", "cloud.example.com_A", map[string]any{"value": "203.0.113.77", "ttl": 60}),
			},
			{ // someone points the record elsewhere by hand
				PreConfig: func() {
					editObject(t, root, "dns_record", "cloud.example.com_A", func(m map[string]any) { m["value"] = "198.51.100.9" })
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              resource.TestCheckResourceAttr(addr, "value", "198.51.100.9"),
			},
			{ // the apex as a CNAME is a new record: replaced
				Config: dnsConfig(root, "@", "CNAME", `"proxy.example.net"`, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "fqdn", "example.com"),
					fileAbsent(root, "dns_record", "cloud.example.com_A"),
					fileHas(root, "dns_record", "example.com_CNAME", map[string]any{"value": "proxy.example.net"}),
				),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateId:     "example.com/@/CNAME",
				ImportStateVerify: true,
			},
		},
	})
}

func TestDNSRecordValidation(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tests := []struct {
		name, recName, typ, value string
		want                      *regexp.Regexp
	}{
		{"A needs IPv4", "cloud", "A", `"2001:db8::1"`, regexp.MustCompile(`an A record needs an IPv4 address`)},
		{"AAAA needs IPv6", "cloud", "AAAA", `"192.0.2.1"`, regexp.MustCompile(`an AAAA record needs an IPv6 address`)},
		{"CNAME needs a hostname", "cloud", "CNAME", `"not a host"`, regexp.MustCompile(`a CNAME record needs a lowercase hostname`)},
		{"unknown type", "cloud", "MX", `"mail.example.com"`, regexp.MustCompile(`must be one of: A, AAAA, CNAME, TXT`)},
		{"bad name", "Cloud!", "TXT", `"hello"`, regexp.MustCompile(`"@" for the zone apex`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: factories,
				Steps: []resource.TestStep{{
					Config:      dnsConfig(root, tt.recName, tt.typ, tt.value, ""),
					PlanOnly:    true,
					ExpectError: tt.want,
				}},
			})
		})
	}
}
