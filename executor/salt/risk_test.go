package salt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/executor"
)

// recorded reads a minion's return (and, when low is set, its state.show_low_sls answer)
// from testdata/risk.
// restartText and mountsText are the states of the recorded runs as a blueprint writes them:
// a state's id and name are shown when the state text says them (namemask.go).
const restartText = `/etc/eos-demo/nginx.conf:
  file.managed: []
web:
  service.running:
    - name: eos-demo-web
api:
  service.running:
    - name: eos-demo-api
on-changes-only:
  service.running:
    - name: eos-demo-worker
restart-cmd:
  cmd.run:
    - name: systemctl restart eos-demo
calm:
  service.running:
    - name: eos-demo-calm
`

const mountsText = `data-volume:
  lvm.lv_present:
    - name: data-app
data-filesystem:
  blockdev.formatted:
    - name: /dev/vg0/data-app
data-mount:
  mount.mounted:
    - name: /srv/app
data-owner:
  file.directory:
    - name: /srv/app
old-cache:
  file.absent:
    - name: /srv/app/cache
scratch:
  mount.unmounted:
    - name: /mnt/scratch
motd:
  file.managed:
    - name: /etc/motd
`

func recorded(t *testing.T, name string, low bool) (minionReturn, lowIndex) {
	t.Helper()
	read := func(file string) json.RawMessage {
		b, err := os.ReadFile(filepath.Join("testdata", "risk", file))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	m := parseReturn("node1", read(name+".apply.json"))
	if m.Err != "" {
		t.Fatalf("%s: %s", name, m.Err)
	}
	if !low {
		return m, nil
	}
	idx := parseLow(read(name + ".low.json"))
	if idx == nil {
		t.Fatalf("%s.low.json: no chunks", name)
	}
	return m, idx
}

// byAddress indexes changes by their address.
func byAddress(cs []executor.Change) map[string]executor.Change {
	out := map[string]executor.Change{}
	for _, c := range cs {
		out[c.Address] = c
	}
	return out
}

// A real Salt 3006.9 test=True return (testdata/risk/restart.*.json, recorded from the test
// master): the services whose watch fires are marked with what they would do and which state
// triggers them; a service only re-run on changes, which stays running, is not; a restart
// command is.
func TestAssessRestartsFromARecordedReturn(t *testing.T) {
	m, low := recorded(t, "restart", true)
	unit := executor.Unit{Service: "web", Salt: &executor.SaltPart{Text: restartText}}
	got := byAddress(changesOf(unit, m, low))
	want := map[string]string{
		"node1: service.running web (eos-demo-web)":               "service eos-demo-web would restart (watch: file /etc/eos-demo/nginx.conf)",
		"node1: service.running api (eos-demo-api)":               "service eos-demo-api would reload (watch: file /etc/eos-demo/nginx.conf)",
		"node1: service.running calm (eos-demo-calm)":             "service eos-demo-calm would restart (watch: cmd systemctl restart eos-demo, watch: file /etc/eos-demo/nginx.conf)",
		"node1: cmd.run restart-cmd (systemctl restart eos-demo)": `command "systemctl restart eos-demo" would run (onchanges: file /etc/eos-demo/nginx.conf)`,
		"node1: file.managed /etc/eos-demo/nginx.conf":            "",
	}
	if len(got) != len(want) {
		t.Errorf("%d changes, want %d: %+v", len(got), len(want), got)
	}
	for addr, forces := range want {
		c, ok := got[addr]
		if !ok {
			t.Errorf("no change %q among %+v", addr, got)
			continue
		}
		action := executor.Update
		if addr == "node1: file.managed /etc/eos-demo/nginx.conf" {
			action = executor.Create // the recording's file did not exist yet: a create, as Salt's "newfile" says
		}
		if c.Forces != forces || c.Action != action || c.DataLoss {
			t.Errorf("%s: action %s, forces %q, data loss %v; want %s, %q, no data loss", addr, c.Action, c.Forces, c.DataLoss, action, forces)
		}
		if c.Disrupts() != (forces != "") {
			t.Errorf("%s: Disrupts() = %v", addr, c.Disrupts())
		}
	}
	if _, ok := got["node1: service.running on-changes-only (eos-demo-worker)"]; ok {
		t.Errorf("a service already running, re-run by onchanges, is not a change")
	}

	// Without the compiled states (state.show_low_sls failed) the restart is still marked.
	bare := byAddress(changesOf(unit, m, nil))
	if c := bare["node1: service.running web (eos-demo-web)"]; c.Forces != "service eos-demo-web would restart" {
		t.Errorf("without triggers: forces %q", c.Forces)
	}
}

// Mounts and volumes (hand-written in Salt's format from the comments of its 3006.9 states):
// reformatting an existing volume the unit says holds data loses it, removing a file under
// its mount point too, a remount disrupts, a file elsewhere is an ordinary update. Without
// the marking the same states are still flagged, without data loss.
func TestAssessMountsAndVolumes(t *testing.T) {
	m, _ := recorded(t, "mounts", false)
	type want struct {
		action executor.Action
		forces string
		loss   bool
	}
	marked := executor.Unit{Service: "app", Salt: &executor.SaltPart{Text: mountsText, HoldsData: []string{"/srv/app", "/dev/vg0/data-app"}}}
	wants := map[string]want{
		"node1: blockdev.formatted data-filesystem (/dev/vg0/data-app)": {executor.Replace, "blockdev /dev/vg0/data-app would be formatted", true},
		"node1: mount.mounted data-mount (/srv/app)":                    {executor.Update, "mount /srv/app would change: Remount would be forced because options (noatime) changed", false},
		"node1: file.directory data-owner (/srv/app)":                   {executor.Update, "file /srv/app under data path /srv/app would change", false},
		"node1: file.absent old-cache (/srv/app/cache)":                 {executor.Delete, "file /srv/app/cache under data path /srv/app would be removed", true},
		"node1: mount.unmounted scratch (/mnt/scratch)":                 {executor.Update, "mount /mnt/scratch would be unmounted", false},
		"node1: file.managed motd (/etc/motd)":                          {executor.Update, "", false},
	}
	got := byAddress(changesOf(marked, m, nil))
	if len(got) != len(wants) {
		t.Errorf("%d changes, want %d: %+v", len(got), len(wants), got)
	}
	for addr, w := range wants {
		c := got[addr]
		if c.Action != w.action || c.Forces != w.forces || c.DataLoss != w.loss {
			t.Errorf("%s: %s %q loss %v; want %s %q loss %v", addr, c.Action, c.Forces, c.DataLoss, w.action, w.forces, w.loss)
		}
	}

	unmarked := executor.Unit{Service: "app", Salt: &executor.SaltPart{Text: mountsText}}
	for _, c := range changesOf(unmarked, m, nil) {
		if c.DataLoss {
			t.Errorf("%s: data loss without a holds_data marking", c.Address)
		}
	}
	if c := byAddress(changesOf(unmarked, m, nil))["node1: blockdev.formatted data-filesystem (/dev/vg0/data-app)"]; !c.Risky() {
		t.Errorf("reformatting an existing volume is not risky: %+v", c)
	}
}

// A volume created in the same run is formatted and mounted for the first time: nothing is
// lost or disrupted.
func TestAssessFreshVolume(t *testing.T) {
	m, _ := recorded(t, "fresh", false)
	u := executor.Unit{Service: "app", Salt: &executor.SaltPart{HoldsData: []string{"/srv/app", "/dev/vg0/data-app"}}}
	cs := changesOf(u, m, nil)
	if len(cs) != 3 {
		t.Fatalf("%d changes, want 3: %+v", len(cs), cs)
	}
	for _, c := range cs {
		if c.Risky() {
			t.Errorf("%s is risky (%s %q, loss %v) on a volume created in the same run", c.Address, c.Action, c.Forces, c.DataLoss)
		}
	}
}
