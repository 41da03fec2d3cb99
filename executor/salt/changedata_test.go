package salt

import (
	"encoding/json"
	"testing"

	"github.com/eosbot/eos/executor"
)

// The disruption marks are fields of the change's data too, the same recorded returns as the
// risk tests: what a service would do (restart, reload), which service, what triggers it; a
// mount changed or unmounted, a volume formatted, a file under a data path removed, and that
// path. A state that disrupts nothing has none.
func TestDisruptionMarksAreData(t *testing.T) {
	m, low := recorded(t, "restart", true)
	got := byAddress(changesOf(executor.Unit{Service: "web", Salt: &executor.SaltPart{Text: restartText}}, m, low))
	m2, _ := recorded(t, "mounts", false)
	marked := executor.Unit{Service: "app", Salt: &executor.SaltPart{Text: mountsText, HoldsData: []string{"/srv/app", "/dev/vg0/data-app"}}}
	for addr, c := range byAddress(changesOf(marked, m2, nil)) {
		got[addr] = c
	}
	wants := map[string]string{
		"node1: service.running web (eos-demo-web)":                     `{"minion":"node1","id":"web","function":"service.running","name":"eos-demo-web","changes":{},"restart":"restart","service":"eos-demo-web","triggers":["watch: file /etc/eos-demo/nginx.conf"],"mount":"","format":false,"remove":false,"data_path":""}`,
		"node1: service.running api (eos-demo-api)":                     `{"minion":"node1","id":"api","function":"service.running","name":"eos-demo-api","changes":{},"restart":"reload","service":"eos-demo-api","triggers":["watch: file /etc/eos-demo/nginx.conf"],"mount":"","format":false,"remove":false,"data_path":""}`,
		"node1: cmd.run restart-cmd (systemctl restart eos-demo)":       `{"minion":"node1","id":"restart-cmd","function":"cmd.run","name":"systemctl restart eos-demo","changes":{"cmd":"systemctl restart eos-demo"},"restart":"restart","service":"","triggers":["onchanges: file /etc/eos-demo/nginx.conf"],"mount":"","format":false,"remove":false,"data_path":""}`,
		"node1: blockdev.formatted data-filesystem (/dev/vg0/data-app)": `"format":true,"remove":false,"data_path":"/dev/vg0/data-app"}`,
		"node1: mount.mounted data-mount (/srv/app)":                    `"mount":"change","format":false,"remove":false,"data_path":"/srv/app"}`,
		"node1: file.absent old-cache (/srv/app/cache)":                 `"mount":"","format":false,"remove":true,"data_path":"/srv/app"}`,
		"node1: mount.unmounted scratch (/mnt/scratch)":                 `"mount":"unmount","format":false,"remove":false,"data_path":""}`,
		"node1: file.managed motd (/etc/motd)":                          `"restart":"","service":"","triggers":[],"mount":"","format":false,"remove":false,"data_path":""}`,
	}
	for addr, want := range wants {
		c, ok := got[addr]
		if !ok || c.Salt == nil {
			t.Errorf("%s: no change with data among %d", addr, len(got))
			continue
		}
		raw, _ := json.Marshal(c.Salt)
		if s := string(raw); s != want && (len(s) < len(want) || s[len(s)-len(want):] != want) {
			t.Errorf("%s as data:\n%s\nwant it to end with\n%s", addr, s, want)
		}
	}
}

// A state's changes as data are masked by the diff's rule: a value made of what the blueprint
// says is kept, any other reads "<secret masked>", deep; Salt's words as keys and its notes
// are kept; a diff is the masked diff.
func TestSaltChangesAreMaskedAsTheDiffIs(t *testing.T) {
	u := executor.Unit{Service: "app", Salt: &executor.SaltPart{Text: "nginx:\n  pkg.installed: []\n", Pillar: map[string]any{"port": 8080}}}
	m := maskerFor(u).with("/etc/app.conf", "node1")
	raw := json.RawMessage(`{"nginx": {"old": "", "new": "1.24.0-2"}, "newfile": "/etc/app.conf", "note": "New file",
		"Zr7qK2vLp9": "x", "n": 3, "list": ["8080", "hunter2"], "diff": "raw diff holding hunter2"}`)
	got, _ := json.Marshal(m.changes(raw, "@@ -1 +1 @@\n-<secret masked>\n+port=8080"))
	want := `{"\u003csecret masked\u003e":"\u003csecret masked\u003e","diff":"@@ -1 +1 @@\n-\u003csecret masked\u003e\n+port=8080","list":["8080","\u003csecret masked\u003e"],"n":3,"newfile":"/etc/app.conf","nginx":{"new":"\u003csecret masked\u003e","old":""},"note":"New file"}`
	if string(got) != want {
		t.Errorf("masked changes:\n%s\nwant\n%s", got, want)
	}
	if got := m.changes(json.RawMessage(`"not a map"`), ""); got == nil || len(got) != 0 {
		t.Errorf("changes that are not a map: %v, want {}", got)
	}
}
