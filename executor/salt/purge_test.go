package salt

import (
	"reflect"
	"testing"
)

// --purge-data removes only what lies under the minion's data directory: the service's
// directory there whole when every file is in one named after the service, else each file;
// never the data directory itself, anything outside it, or anything on a minion without one.
func TestPurgeRemovesOnlyWhatLiesUnderTheDataDirectory(t *testing.T) {
	for _, c := range []struct {
		name, dataDir string
		managed       []string
		remove, kept  []string
	}{
		{"the service's directory whole", "/var/eos", []string{"/var/eos/srv/nextcloud-local/.eos-volume", "/var/eos/srv/nextcloud-local/nextcloud.conf"},
			[]string{"/var/eos/srv/nextcloud-local"}, nil},
		{"files of a directory not named after the service", "/var/eos", []string{"/var/eos/etc/app.conf", "/var/eos/etc/other.conf"},
			[]string{"/var/eos/etc/app.conf", "/var/eos/etc/other.conf"}, nil},
		{"a file right in the data directory", "/var/eos/", []string{"/var/eos/nextcloud.conf"}, []string{"/var/eos/nextcloud.conf"}, nil},
		{"what lies outside is kept", "/var/eos", []string{"/etc/nextcloud.conf", "/var/eos/srv/nextcloud-local/x", "lvm.lv_present data-nextcloud", "/var/eosx/nextcloud/y"},
			[]string{"/var/eos/srv/nextcloud-local"}, []string{"/etc/nextcloud.conf", "lvm.lv_present data-nextcloud", "/var/eosx/nextcloud/y"}},
		{"a path that climbs out is kept", "/var/eos", []string{"/var/eos/../etc/passwd"}, nil, []string{"/var/eos/../etc/passwd"}},
		{"no data directory", "", []string{"/srv/nextcloud/x"}, nil, []string{"/srv/nextcloud/x"}},
		{"the root as data directory", "/", []string{"/srv/nextcloud/x"}, nil, []string{"/srv/nextcloud/x"}},
		{"a relative data directory", "data", []string{"data/nextcloud/x"}, nil, []string{"data/nextcloud/x"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := purgeOf("nextcloud", c.dataDir, c.managed)
			if !reflect.DeepEqual(s.Remove, c.remove) || !reflect.DeepEqual(s.Kept, c.kept) {
				t.Errorf("purgeOf(%q, %q) removes %q, keeps %q; want %q, %q", c.dataDir, c.managed, s.Remove, s.Kept, c.remove, c.kept)
			}
		})
	}
}
