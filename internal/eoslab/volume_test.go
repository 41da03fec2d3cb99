package eoslab

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

func volumeConfig(root, name string, sizeGB int, format string, attached bool) string {
	serverID := "null"
	if attached {
		serverID = "eoslab_server.db.id"
	}
	return providerConfig(root, fmt.Sprintf(`
resource "eoslab_server" "db" {
  name  = "db"
  size  = "medium"
  image = "debian-12"
}

resource "eoslab_volume" "data" {
  name      = %q
  size_gb   = %d
  format    = %q
  server_id = %s
}
`, name, sizeGB, format, serverID))
}

func TestVolumeLifecycle(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	const addr = "eoslab_volume.data"
	id := fakeID(volumeRef("pgdata"))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		CheckDestroy:             noObjects(root),
		Steps: []resource.TestStep{
			{
				Config: volumeConfig(root, "pgdata", 20, "xfs", true),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "device", "/dev/disk/by-id/scsi-0EOS_Volume_"+id),
					resource.TestCheckResourceAttrPair(addr, "server_id", "eoslab_server.db", "id"),
					fileHas(root, "volume", "pgdata", map[string]any{
						"id": id, "name": "pgdata", "size_gb": 20, "format": "xfs",
						"server_id": fakeID(serverRef("db")), "device": "/dev/disk/by-id/scsi-0EOS_Volume_" + id,
					}),
				),
			},
			{ // grow and detach in place
				Config: volumeConfig(root, "pgdata", 50, "xfs", false),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: fileHas(root, "volume", "pgdata", map[string]any{"size_gb": 50, "server_id": nil}),
			},
			{
				Config:      volumeConfig(root, "pgdata", 30, "xfs", false),
				ExpectError: regexp.MustCompile(`Volumes cannot shrink(.|\n)*from 50 to 30`),
			},
			{ // a new format replaces the volume, and then any size is fine
				Config: volumeConfig(root, "pgdata", 30, "ext4", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: fileHas(root, "volume", "pgdata", map[string]any{"size_gb": 30, "format": "ext4"}),
			},
			{ // someone detaches it by hand
				PreConfig: func() {
					editObject(t, root, "volume", "pgdata", func(m map[string]any) { m["server_id"] = nil })
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              resource.TestCheckNoResourceAttr(addr, "server_id"),
			},
			{
				ResourceName:                         addr,
				ImportState:                          true,
				ImportStateId:                        "pgdata",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "name",
			},
		},
	})
}

func TestVolumeErrors(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tests := []struct {
		name, config string
		want         *regexp.Regexp
	}{
		{"too small", volumeConfig(root, "v", 5, "xfs", false), regexp.MustCompile(`size_gb is 5; it must be between 10 and 10240`)},
		{"unknown format", volumeConfig(root, "v", 10, "ntfs", false), regexp.MustCompile(`must be one of: xfs, ext4, btrfs`)},
		{"missing server", providerConfig(root, `
resource "eoslab_volume" "data" {
  name      = "v"
  size_gb   = 10
  server_id = "12345"
}
`), regexp.MustCompile(`No eoslab_server has id "12345"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: factories,
				Steps:                    []resource.TestStep{{Config: tt.config, ExpectError: tt.want}},
			})
		})
	}
}
