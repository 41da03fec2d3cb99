package salt

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// configGet answers config.get eos_data_dir as a minion without the setting does (""), or
// with f.dataDirs' answer for the minion, and records when it came. f.mu is held.
func (f *fakeSaltAPI) configGet(c map[string]any) map[string]any {
	tgt, _ := c["tgt"].(string)
	tgtType, _ := c["tgt_type"].(string)
	f.configGets = append(f.configGets, configGetCall{tgt: tgtType + " " + tgt, pings: len(f.pings), applies: len(f.calls)})
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

// configGetCall is one config.get the fake received: its target, and how many test.pings and
// state.applies had come before it.
type configGetCall struct {
	tgt            string
	pings, applies int
}

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

// The eos_data_dir is read once per minion, after the test.ping answered and before the
// test job, never beside another job (a Salt 3006 minion drops one of two jobs published to
// it at once): a second plan on the same minion asks nothing, and shows the path the same.
func TestTheDataDirIsReadOnceAfterThePingAndBeforeTheTestJob(t *testing.T) {
	const dir = "/var/lib/eos-q8zk"
	f := newFakeSaltAPI(t, "node1")
	f.dataDirs = map[string]any{"node1": dir}
	f.run = grafanaDataRun(dir)
	l := newLayer(t, f, nil)
	for i := range 2 {
		p, err := l.Plan(context.Background(), grafanaDataSpec())
		if err != nil {
			t.Fatalf("Plan %d: %v", i+1, err)
		}
		if _, ok := byAddress(p.Changes)["node1: file.managed grafana-config ("+dir+"/srv/grafana/grafana.ini)"]; !ok {
			t.Errorf("plan %d: want the path whole, among %v", i+1, p.Changes)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.configGets) != 1 {
		t.Fatalf("config.get asked %d times over two plans, want once: %+v", len(f.configGets), f.configGets)
	}
	if g := f.configGets[0]; g.pings != 1 || g.applies != 0 || g.tgt != "list node1" {
		t.Errorf("config.get came %+v; want after the one test.ping and before any state.apply, on list node1", g)
	}
}

// An apply's progress masks with the eos_data_dir the plan before it read: the path that
// showed whole in the preview shows whole while it applies, not "<secret masked>/…".
func TestTheApplysProgressShowsPathsUnderTheDataDirAsThePlanDid(t *testing.T) {
	const dir = "/var/lib/eos-q8zk"
	f := newFakeSaltAPI(t, "node1")
	f.dataDirs = map[string]any{"node1": dir}
	f.run = grafanaDataRun(dir)
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), grafanaDataSpec())
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	rec := &recorder{}
	if _, err := l.Apply(context.Background(), grafanaDataSpec(), p, executor.Observe(rec.report, nil)); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	var texts []string
	for _, e := range rec.all() {
		texts = append(texts, fmt.Sprintf("%+v", e))
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, dir+"/srv/grafana/grafana.ini") || strings.Contains(all, secretMasked+"/srv/grafana/grafana.ini") {
		t.Errorf("the apply's progress does not show the path under eos_data_dir whole:\n%s", all)
	}
	if strings.Contains(all, "s3cr3t") {
		t.Errorf("the apply's progress names the master pillar's secret:\n%s", all)
	}
}
