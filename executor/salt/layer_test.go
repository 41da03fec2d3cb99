package salt

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

const lvmText = `data-{{ pillar['service'] }}:
  lvm.lv_present:
    - vgname: vg0
    - size: {{ pillar['size'] }}
fs-{{ pillar['service'] }}:
  blockdev.formatted:
    - name: /dev/vg0/data-{{ pillar['service'] }}
mount-{{ pillar['service'] }}:
  mount.mounted:
    - name: /srv/data/{{ pillar['service'] }}
xfsprogs:
  pkg.installed: []
conf-{{ pillar['service'] }}:
  file.managed:
    - name: /srv/{{ pillar['service'] }}/app.conf
`

// lvmStates is a minion's return of the lvm state: three states that change (or would, with
// test=True) and one already in place. The run numbers are not in key order, so ordering by
// __run_num__ is visible.
func lvmStates(test bool) map[string]any {
	var r any = true
	ch := func(c map[string]any) map[string]any { return c }
	if test {
		r = nil
	}
	return states(
		s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", r, ch(map[string]any{"created": "data-nextcloud"}), "Logical Volume data-nextcloud is set to be created", 0),
		s("blockdev", "fs-nextcloud", "/dev/vg0/data-nextcloud", "formatted", r, ch(map[string]any{"new": "xfs"}), "/dev/vg0/data-nextcloud would be formatted with xfs", 1),
		s("mount", "mount-nextcloud", "/srv/data/nextcloud", "mounted", r, ch(map[string]any{"mount": true}), "Target was mounted", 2),
		s("pkg", "xfsprogs", "xfsprogs", "installed", true, nil, "All specified packages are already installed", 3),
	)
}

func cleanStates() map[string]any {
	return states(
		s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", true, nil, "Logical Volume data-nextcloud already present", 0),
		s("pkg", "xfsprogs", "xfsprogs", "installed", true, nil, "All specified packages are already installed", 1),
	)
}

func lvmSpec(targets ...string) executor.Spec {
	return executor.Spec{Verb: "resize", Target: "lvm", Env: "production", Units: []executor.Unit{{
		Service: "lvm",
		Salt: &executor.SaltPart{State: "lvm.sls", Text: lvmText, Targets: targets,
			Pillar: map[string]any{"service": "nextcloud", "size": "150G", "note": "pillar-marker-9f3"}},
	}}}
}

// newLayer connects a layer to the fake with short timeouts; logs go to buf.
// newLayer is a layer on f. Its dry runs take returns from their events
// (Config.DryRunsFromEvents), the path most of these tests look at; the default, /jobs, is
// TestDryRunsReadJobsByDefault's.
func newLayer(t *testing.T, f *fakeSaltAPI, buf *syncBuffer) *Layer {
	t.Helper()
	cfg := Config{URL: f.srv.URL, Username: f.user, Password: f.password, Timeout: 5 * time.Second, PollInterval: 20 * time.Millisecond, DryRunsFromEvents: true}
	if buf != nil {
		cfg.Logger = slog.New(slog.NewTextHandler(buf, nil))
	}
	l, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestPlanListsWhatWouldChangePerMinion(t *testing.T) {
	f := newFakeSaltAPI(t, "node1", "node2", "node3")
	f.run = func(m, _ string, _ map[string]any, test bool) any {
		if m == "node1" {
			return lvmStates(test)
		}
		return cleanStates()
	}
	logs := &syncBuffer{}
	l := newLayer(t, f, logs)
	spec := lvmSpec("node1", "node2")
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if p.Status != executor.PlanChanges {
		t.Errorf("status %s, want changes", p.Status)
	}
	wantSummary := "+0 ~3 −0 on node1: data-nextcloud, fs-nextcloud, mount-nextcloud; no changes on node2 (2 states)"
	if p.Summary != wantSummary {
		t.Errorf("summary\n got %q\nwant %q", p.Summary, wantSummary)
	}
	state := func(id, function, name string, changes map[string]any) *executor.SaltState {
		return &executor.SaltState{Minion: "node1", ID: id, Function: function, Name: name, Changes: changes, Triggers: []string{}}
	}
	wantChanges := []executor.Change{
		{Unit: "lvm", Action: executor.Update, Address: "node1: lvm.lv_present data-nextcloud", Detail: "Logical Volume data-nextcloud is set to be created",
			Salt: state("data-nextcloud", "lvm.lv_present", "data-nextcloud", map[string]any{"created": "data-nextcloud"})},
		{Unit: "lvm", Action: executor.Update, Address: "node1: blockdev.formatted fs-nextcloud (/dev/vg0/data-nextcloud)", Detail: "/dev/vg0/data-nextcloud would be formatted with xfs",
			Salt: state("fs-nextcloud", "blockdev.formatted", "/dev/vg0/data-nextcloud", map[string]any{"new": secretMasked})},
		{Unit: "lvm", Action: executor.Update, Address: "node1: mount.mounted mount-nextcloud (/srv/data/nextcloud)", Detail: "Target was mounted",
			Salt: state("mount-nextcloud", "mount.mounted", "/srv/data/nextcloud", map[string]any{"mount": true})},
	}
	if !reflect.DeepEqual(p.Changes, wantChanges) {
		t.Errorf("changes\n got %+v\nwant %+v", p.Changes, wantChanges)
	}
	var ps planState
	if err := json.Unmarshal(p.State, &ps); err != nil || ps.States != 6 {
		t.Errorf("plan state %s (%v), want 6 states", p.State, err)
	}

	calls := f.applyCalls()
	if len(calls) != 1 {
		t.Fatalf("%d state.apply calls, want 1", len(calls))
	}
	c := calls[0]
	if !c.Test || !c.Queue || c.Tgt != "node1,node2" || c.TgtType != "list" {
		t.Errorf("call %+v, want test=True, queue=True on list node1,node2", c)
	}
	if c.Text != lvmText || !strings.HasPrefix(c.SLS, "eos.lvm_") {
		t.Errorf("the minions ran %q (sls %s), want the unit's state text under eos.lvm_<hash>", c.Text, c.SLS)
	}
	if !reflect.DeepEqual(c.Pillar, spec.Units[0].Salt.Pillar) {
		t.Errorf("pillar %v, want the unit's pillar passed as data", c.Pillar)
	}

	// The digest is stable, and changes with the pillar and the state text.
	again, err := l.Plan(context.Background(), spec)
	if err != nil || again.Digest != p.Digest {
		t.Errorf("a second plan's digest differs (%v):\n%s\n%s", err, p.Digest, again.Digest)
	}
	spec.Units[0].Salt.Pillar = map[string]any{"service": "nextcloud", "size": "200G"}
	if other, err := l.Plan(context.Background(), spec); err != nil || other.Digest == p.Digest {
		t.Errorf("the digest did not change with the pillar (%v)", err)
	}
	spec.Units[0].Salt.Text += "# changed\n"
	if other, err := l.Plan(context.Background(), spec); err != nil || other.Digest == p.Digest {
		t.Errorf("the digest did not change with the state text (%v)", err)
	}
	if got := f.applyCalls(); got[len(got)-1].SLS == c.SLS {
		t.Errorf("a changed state text kept the sls name %s", c.SLS)
	}
	for _, leak := range []string{"pillar-marker-9f3", f.password} {
		if strings.Contains(logs.String(), leak) {
			t.Errorf("the log contains %q:\n%s", leak, logs.String())
		}
	}
}

func TestPlanShowsStatesThatWouldFail(t *testing.T) {
	f := newFakeSaltAPI(t, "node1")
	f.run = func(string, string, map[string]any, bool) any {
		return states(
			s("lvm", "data-nextcloud", "data-nextcloud", "lv_present", false, nil, "Volume group vg0 has 20G free, 150G requested", 0),
			s("pkg", "xfsprogs", "xfsprogs", "installed", nil, map[string]any{"xfsprogs": map[string]any{"new": "6.1"}}, "The following packages would be installed: xfsprogs", 1),
		)
	}
	l := newLayer(t, f, nil)
	p, err := l.Plan(context.Background(), lvmSpec()) // default targets: the "*" glob
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if want := "targets * = node1; +0 ~1 −0 on node1: xfsprogs · 1 would fail: data-nextcloud"; p.Summary != want {
		t.Errorf("summary %q, want %q", p.Summary, want)
	}
	if len(p.Changes) != 2 || p.Changes[0].Detail != "would fail: Volume group vg0 has 20G free, 150G requested" || p.Changes[0].Action != executor.NoOp {
		t.Errorf("changes %+v, want the failure first", p.Changes)
	}
	if want := []string{"node1: lvm.lv_present data-nextcloud: Volume group vg0 has 20G free, 150G requested"}; !reflect.DeepEqual(p.Failures, want) {
		t.Errorf("failures %q, want %q: a state that fails in test mode makes the plan one that cannot be approved", p.Failures, want)
	}
	// The glob is resolved by test.ping, and the dry run targets the minions that answered.
	if c := f.applyCalls()[0]; c.Tgt != "node1" || c.TgtType != "list" || !reflect.DeepEqual(f.pings, []string{"glob *"}) {
		t.Errorf("pinged %q and targeted %s %q, want the default glob * resolved to the list node1", f.pings, c.TgtType, c.Tgt)
	}
}

func TestPlanFailsWhenAMinionCannotRun(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(f *fakeSaltAPI)
		targets []string
		want    string
	}{
		{"minion did not return", func(f *fakeSaltAPI) {
			f.run = func(m string, _ string, _ map[string]any, _ bool) any {
				if m == "node2" {
					return "Minion did not return. [No response]"
				}
				return cleanStates()
			}
		}, nil, "lvm: minion node2: Minion did not return. [No response]"},
		{"render error", func(f *fakeSaltAPI) {
			f.run = func(string, string, map[string]any, bool) any {
				return []any{"Rendering SLS 'base:eos.lvm' failed: Jinja variable 'dict object' has no attribute 'size'"}
			}
		}, nil, "Rendering SLS 'base:eos.lvm' failed"},
		{"unknown minion", func(f *fakeSaltAPI) { f.run = func(string, string, map[string]any, bool) any { return cleanStates() } },
			[]string{"node1", "node9"}, "minion node9 is not known to the Salt master"},
		{"no minion matches", func(f *fakeSaltAPI) { f.run = func(string, string, map[string]any, bool) any { return cleanStates() } },
			[]string{"db*"}, `no minion matches glob "db*"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeSaltAPI(t, "node1", "node2")
			tt.setup(f)
			_, err := newLayer(t, f, nil).Plan(context.Background(), lvmSpec(tt.targets...))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Plan error = %v, want %q", err, tt.want)
			}
		})
	}
}
