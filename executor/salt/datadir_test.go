package salt

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// configGet answers config.get eos_data_dir as a minion without the setting does (""), or
// with f.dataDirs' answer for the minion; while f.holdDataDirs is open, it waits for it to
// close. f.mu is held.
func (f *fakeSaltAPI) configGet(r *http.Request, c map[string]any) map[string]any {
	if hold := f.holdDataDirs; hold != nil {
		f.mu.Unlock()
		select {
		case <-hold:
		case <-r.Context().Done():
		}
		f.mu.Lock()
	}
	tgt, _ := c["tgt"].(string)
	tgtType, _ := c["tgt_type"].(string)
	answers := map[string]any{}
	for _, m := range f.match(tgt, tgtType) {
		answers[m] = ""
		if d, ok := f.dataDirs[m]; ok {
			answers[m] = d
		}
	}
	return answers
}

// grafanaDataText manages a file under the minion's eos_data_dir, as the blueprints' local
// variants do, and a key file whose path the text says.
const grafanaDataText = `{%- set root = salt['config.get']('eos_data_dir', '') ~ '/srv/grafana' %}
grafana-config:
  file.managed:
    - name: {{ root }}/grafana.ini
    - contents: |
        data={{ root }}/data
tls:
  file.managed:
    - name: /srv/x/tls.key
    - contents_pillar: tls
`

func grafanaDataSpec() executor.Spec {
	return executor.Spec{Verb: "create", Target: "grafana", Env: "production", Units: []executor.Unit{{
		Service: "grafana",
		Salt:    &executor.SaltPart{State: "grafana.sls", Text: grafanaDataText, Pillar: map[string]any{"domain": "grafana.local.test"}},
	}}}
}

// grafanaDataRun is node1's test-mode return of grafanaDataText with eos_data_dir dir, and a
// state the master's pillar names (its secret in a directory under dir).
func grafanaDataRun(dir string) func(string, string, map[string]any, bool) any {
	return func(string, string, map[string]any, bool) any {
		return states(
			s("file", "grafana-config", dir+"/srv/grafana/grafana.ini", "managed", nil,
				map[string]any{"diff": "--- \n+++ \n@@ -1 +1 @@\n-data=/old\n+data=" + dir + "/srv/grafana/data"}, "The file "+dir+"/srv/grafana/grafana.ini is set to be changed", 0),
			s("file", "tls", "/srv/x/tls.key", "managed", nil, map[string]any{"diff": "New file"}, "The file /srv/x/tls.key is set to be changed", 1),
			s("file", "grafana-secret", dir+"/srv/s3cr3t-v4lue/grafana.ini", "managed", nil, map[string]any{"diff": "New file"}, "", 2),
		)
	}
}

// The minion's eos_data_dir is text the reader sees: a path under it shows whole in the
// change's address and name, and in a diff's line, while a directory the master's
// pillar names under it is still masked.
func TestPathsUnderTheMinionsDataDirShowWhole(t *testing.T) {
	const dir = "/var/lib/eos-q8zk"
	f := newFakeSaltAPI(t, "node1")
	f.dataDirs = map[string]any{"node1": dir}
	f.run = grafanaDataRun(dir)
	p, err := newLayer(t, f, nil).Plan(context.Background(), grafanaDataSpec())
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	raw, _ := json.Marshal(p)
	if strings.Contains(string(raw), "s3cr3t") || strings.Contains(string(raw), "v4lue") {
		t.Errorf("the plan names the master pillar's secret:\n%s", raw)
	}
	byAddr := byAddress(p.Changes)
	conf, ok := byAddr["node1: file.managed grafana-config ("+dir+"/srv/grafana/grafana.ini)"]
	if !ok || conf.Salt.Name != dir+"/srv/grafana/grafana.ini" {
		t.Errorf("the file under eos_data_dir: %+v among %v; want its path whole", conf, p.Changes)
	}
	if want := "--- \n+++ \n@@ -1 +1 @@\n-" + secretMasked + "\n+data=" + dir + "/srv/grafana/data"; conf.Diff != want {
		t.Errorf("diff\n got %q\nwant %q (the line naming eos_data_dir shown, the old value masked)", conf.Diff, want)
	}
	if _, ok := byAddr["node1: file.managed "+secretMasked+" ("+secretMasked+"/grafana.ini)"]; !ok {
		t.Errorf("the state the master's pillar names: want it masked up to grafana.ini, among %v", p.Changes)
	}
}

// A file's name is not its content: "/srv/x/tls.key", which the state text says, shows
// whole though "key" marks a secret in a diff's line.
func TestAFileNamedWithASecretWordTheTextSaysIsShown(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = grafanaDataRun("/var/lib/eos-q8zk")
	p, err := newLayer(t, f, nil).Plan(context.Background(), grafanaDataSpec())
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	c, ok := byAddress(p.Changes)["node1: file.managed tls (/srv/x/tls.key)"]
	if !ok || c.Salt.Name != "/srv/x/tls.key" || c.Detail != "The file /srv/x/tls.key is set to be changed" {
		t.Errorf("the key file: %+v among %v; want its name shown", c, p.Changes)
	}
	if got := (diffMasker{}).with("/srv/x/tls.key").line("+key=/srv/x/tls.key"); got != "+"+secretMasked {
		t.Errorf("a diff's line naming a key = %q; want it masked still", got)
	}
}

// A minion whose eos_data_dir cannot be read (it has none, or did not answer config.get)
// masks a path under it as before: up to the segments the blueprint says.
func TestPathsUnderAnUnreadDataDirStayMasked(t *testing.T) {
	const dir = "/var/lib/eos-q8zk"
	for name, answer := range map[string]any{"none": "", "no answer": noResponse, "not a path": map[string]any{"x": 1}} {
		t.Run(name, func(t *testing.T) {
			f := newFakeSaltAPI(t, "node1")
			f.dataDirs = map[string]any{"node1": answer}
			f.run = grafanaDataRun(dir)
			p, err := newLayer(t, f, nil).Plan(context.Background(), grafanaDataSpec())
			if err != nil {
				t.Fatalf("Plan: %v", err)
			}
			raw, _ := json.Marshal(p)
			if strings.Contains(string(raw), "eos-q8zk") {
				t.Errorf("the plan shows the directory the minion did not say:\n%s", raw)
			}
			if _, ok := byAddress(p.Changes)["node1: file.managed grafana-config ("+secretMasked+"/srv/grafana/grafana.ini)"]; !ok {
				t.Errorf("want the path masked up to srv/grafana/grafana.ini, among %v", p.Changes)
			}
		})
	}
}

// The eos_data_dir is read beside the test.ping, not before the state run: the fake holds
// config.get until the dry run's state.apply arrived, and the plan still shows the path whole.
func TestTheDataDirIsReadBesideTheDryRun(t *testing.T) {
	const dir = "/var/lib/eos-q8zk"
	f := newFakeSaltAPI(t, "node1")
	f.dataDirs = map[string]any{"node1": dir}
	f.holdDataDirs = make(chan struct{})
	var once sync.Once
	run := grafanaDataRun(dir)
	f.run = func(m, sls string, pillar map[string]any, test bool) any {
		once.Do(func() { close(f.holdDataDirs) })
		return run(m, sls, pillar, test)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := newLayer(t, f, nil).Plan(ctx, grafanaDataSpec())
	if err != nil {
		t.Fatalf("Plan: %v (did the state run wait for config.get?)", err)
	}
	if _, ok := byAddress(p.Changes)["node1: file.managed grafana-config ("+dir+"/srv/grafana/grafana.ini)"]; !ok {
		t.Errorf("want the path whole once config.get answered, among %v", p.Changes)
	}
}
