package salt

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// A state whose id or name the minion rendered from a value the blueprint never says (a
// master-pillar secret, "s3cr3t-v4lue") is masked wherever the plan would name it: the
// change's address, detail and data, the diff, the failures and the preview row. A state whose
// id and name the state text says keeps them.
func TestStateIdsAndNamesHoldingASecretAreMaskedInThePlan(t *testing.T) {
	const secret = "s3cr3t-v4lue"
	f := newFakeSaltAPI(t, "node1")
	f.run = func(string, string, map[string]any, bool) any {
		return states(
			s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", nil, map[string]any{"created": "data-nextcloud"}, "Logical Volume data-nextcloud is set to be created", 0),
			s("file", "conf-"+secret, "/srv/nextcloud/"+secret+".conf", "managed", nil,
				map[string]any{"diff": "--- \n+++ \n@@ -1 +1 @@\n-size=1G\n+/srv/nextcloud/" + secret + ".conf"}, "The file /srv/nextcloud/"+secret+".conf is set to be changed", 1),
			s("cmd", "check-"+secret, "echo "+secret, "run", false, nil, `Command "echo `+secret+`" failed`, 2),
			s("file", "conf-nextcloud", "/opt/"+secret+"/srv/nextcloud/app.conf", "managed", nil, map[string]any{"diff": "--- \n+++ \n@@ -1 +1 @@\n-size=1G\n+size=150G"}, "", 3),
		)
	}
	p, err := newLayer(t, f, nil).Plan(context.Background(), lvmSpec("node1"))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	raw, _ := json.Marshal(p)
	if strings.Contains(string(raw), "s3cr3t") || strings.Contains(string(raw), "v4lue") {
		t.Errorf("the plan names the secret:\n%s", raw)
	}
	byAddr := byAddress(p.Changes)
	shown, ok := byAddr["node1: lvm.lv_present data-nextcloud"]
	if !ok || shown.Salt == nil || shown.Salt.ID != "data-nextcloud" || shown.Salt.Name != "data-nextcloud" {
		t.Errorf("a state the text names is not shown as it is: %+v among %v", shown, p.Changes)
	}
	masked, ok := byAddr["node1: file.managed "+secretMasked]
	if !ok || masked.Salt == nil || masked.Salt.ID != secretMasked || masked.Salt.Name != secretMasked || !strings.Contains(masked.Diff, "+"+secretMasked) {
		t.Errorf("the state named with the secret: %+v (data %+v) among %v", masked, masked.Salt, p.Changes)
	}
	// A path keeps the segments after the secret that the text says.
	if c, ok := byAddr["node1: file.managed conf-nextcloud ("+secretMasked+"/srv/nextcloud/app.conf)"]; !ok || c.Salt.Name != secretMasked+"/srv/nextcloud/app.conf" {
		t.Errorf("a path whose directory holds the secret: %+v among %v", c, p.Changes)
	}
	if !strings.Contains(p.Summary, secretMasked) || len(p.Failures) != 1 || p.Failures[0] != "node1: cmd.run "+secretMasked+": Command \""+secretMasked+"\" failed" {
		t.Errorf("summary %q, failures %q: want the failing state masked", p.Summary, p.Failures)
	}
}

// While a unit applies, a state's events, output lines and failure name it as the plan did:
// an id or a name the state text does not say reads "<secret masked>".
func TestStateIdsAndNamesHoldingASecretAreMaskedWhileApplying(t *testing.T) {
	const secret = "s3cr3t-v4lue"
	ok, bad := true, false
	l := &Layer{now: func() time.Time { return time.Unix(0, 0) }}
	var events []executor.Event
	p := newUnitProgress(l, "lvm", &tally{}, 3, func(e executor.Event) { events = append(events, e) })
	var lines []string
	p.output = func(line string) { lines = append(lines, line) }
	mask := maskerFor(lvmSpec().Units[0])
	p.mask = &mask
	p.state("node1", stateResult{Module: "file", Fun: "managed", ID: "conf-" + secret, Name: "/srv/" + secret, Result: &ok, Changed: true, RunNum: 0})
	p.ret(minionReturn{Minion: "node1", States: []stateResult{
		{Module: "file", Fun: "managed", ID: "conf-" + secret, Name: "/srv/" + secret, Result: &ok, Changed: true, RunNum: 0},
		{Module: "lvm", Fun: "lv_present", ID: "data-nextcloud", Name: "data-nextcloud", Result: &ok, RunNum: 1},
		{Module: "cmd", Fun: "run", ID: "check-" + secret, Name: "echo " + secret, Result: &bad, Comment: "echo " + secret + " failed", RunNum: 2},
	}})
	all, _ := json.Marshal(map[string]any{"events": events, "lines": lines, "failed": p.t.failed, "err": p.err.Error()})
	if strings.Contains(string(all), "s3cr3t") {
		t.Errorf("applying names the secret:\n%s", all)
	}
	want := "node1: file.managed " + secretMasked + ": changed|node1: lvm.lv_present data-nextcloud: unchanged|node1: cmd.run " + secretMasked + ": failed: " + secretMasked + " failed"
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("lines\n got %s\nwant %s", got, want)
	}
}
