package intents

import (
	"testing"

	"github.com/eosbot/eos/catalog"
)

// testCatalog is a superset of the embedded blueprints (catalog/blueprints): their flags, plus
// test-only ones so that every flag type the grammar knows, a required flag and a blueprint
// flag shadowing a global one are covered. testdata/corpus.txt uses only the real flags.
func testCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	const fqdn = `[a-z0-9-]+(\.[a-z0-9-]+)+`              // the shipped blueprints' domain pattern
	const lvmName = `[A-Za-z0-9+_][A-Za-z0-9+_.-]{0,126}` // resize lvm's name and --vg
	def := func(typ catalog.Type, s string) *catalog.Value {
		v, err := catalog.ParseValue(typ, s)
		if err != nil {
			t.Fatalf("default %q: %v", s, err)
		}
		return &v
	}
	return catalog.New(
		&catalog.Blueprint{
			Kind: catalog.KindService, Name: "nextcloud", Description: "file sync and share",
			Flags: []catalog.Flag{
				{Name: "sso", Type: catalog.Bool, Description: "single sign-on through authentik"},
				{Name: "domain", Type: catalog.Hostname, Description: "public hostname", Default: def(catalog.Hostname, "cloud.local.test"), Pattern: fqdn},
				{Name: "distributed-storage", Type: catalog.Bool, Description: "keep files on the storage cluster"},
				{Name: "storage", Type: catalog.Size, Description: "size of the data volume", Default: def(catalog.Size, "100G"), Min: def(catalog.Size, "10G"), Max: def(catalog.Size, "16T")},
				{Name: "admin-password", Type: catalog.String, Description: "the admin's password", Secret: true},
				{Name: "tier", Type: catalog.Enum, Values: []string{"small", "medium", "large"}, Description: "server size", Default: def(catalog.Enum, "small")},
				{Name: "backup", Type: catalog.Bool, Description: "nightly backups", Default: def(catalog.Bool, "true")},
				{Name: "retention", Type: catalog.Duration, Description: "how long backups are kept", Default: def(catalog.Duration, "30d")},
				{Name: "data-dir", Type: catalog.Path, Description: "where files live on the host"},
				{Name: "trusted", Type: catalog.List, Description: "extra trusted domains"},
			},
			Requires: []catalog.Requirement{{Service: "authentik", Because: "--sso"}},
		},
		&catalog.Blueprint{
			Kind: catalog.KindService, Name: "grafana", Description: "dashboards",
			Flags: []catalog.Flag{
				{Name: "port", Type: catalog.Port, Description: "HTTP port", Default: def(catalog.Port, "3000")},
				{Name: "domain", Type: catalog.Hostname, Description: "public hostname", Pattern: fqdn},
				{Name: "admin-password", Type: catalog.String, Description: "the admin's password", Secret: true},
			},
		},
		&catalog.Blueprint{
			Kind: catalog.KindService, Name: "jenkins", Description: "continuous integration",
			Flags: []catalog.Flag{
				{Name: "executors", Type: catalog.Int, Description: "build executors", Default: def(catalog.Int, "2"), Min: def(catalog.Int, "1"), Max: def(catalog.Int, "32")},
				{Name: "domain", Type: catalog.Hostname, Description: "public hostname", Default: def(catalog.Hostname, "jenkins.local.test"), Pattern: fqdn},
				{Name: "storage", Type: catalog.Size, Description: "size of the data volume", Default: def(catalog.Size, "50G"), Min: def(catalog.Size, "10G"), Max: def(catalog.Size, "2T")},
				{Name: "nodes", Type: catalog.List, Description: "agents to attach (test only: shadows the global --nodes)"},
			},
		},
		&catalog.Blueprint{
			Kind: catalog.KindService, Name: "authentik", Description: "identity provider",
			Flags: []catalog.Flag{
				{Name: "frontend-for", Type: catalog.Service, Description: "the service it signs people into"},
				{Name: "domain", Type: catalog.Hostname, Description: "public hostname", Default: def(catalog.Hostname, "auth.local.test"), Pattern: fqdn},
				{Name: "realm", Type: catalog.String, Description: "the realm (test only: a required flag)", Required: true},
			},
		},
		&catalog.Blueprint{
			Kind: catalog.KindOperation, Verb: "resize", Name: "lvm", Description: "grow or shrink a logical volume",
			Args: []catalog.Arg{
				{Name: "name", Type: catalog.String, Description: "the logical volume", Pattern: lvmName},
				{Name: "size", Type: catalog.Size, Description: "the new size, or +N to grow by N"},
			},
			Flags: []catalog.Flag{
				{Name: "vg", Type: catalog.String, Description: "the volume group", Default: def(catalog.String, "vg0"), Pattern: lvmName},
				{Name: "fs", Type: catalog.Enum, Values: []string{"xfs", "ext4"}, Description: "filesystem to grow with it (test only)"},
			},
		},
	)
}
