package salt

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// These tests run the layer against the real salt-master, salt-minion and salt-api that
// scripts/testenv/salt.sh starts. They run one after the other (no t.Parallel): some start and
// stop minions of their own, which a glob would otherwise see. Tests of other packages may use
// the shared minion at the same time, so each test keeps its files in a directory of its own
// and never stops the shared minion.

func TestRealPlanApplyAndDrift(t *testing.T) {
	r := needSalt(t)
	logs := &syncBuffer{}
	l := r.layer(t, logs, nil)
	dir := r.dir(t)
	spec := fileSpec("files", dir, 8080, "")
	ctx := context.Background()

	p, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	conf, marker := dir+"/app.conf", dir+"/volume.marker"
	// Counts first, as Terraform's row: two files created, named by their state ids.
	wantSummary := "+2 ~0 −0 on " + r.minion + ": "
	if p.Status != executor.PlanChanges || !strings.HasPrefix(p.Summary, wantSummary) || strings.Contains(p.Summary, dir) {
		t.Errorf("plan %s %q, want changes starting %q, without the absolute paths", p.Status, p.Summary, wantSummary)
	}
	if len(p.Changes) != 2 || p.Changes[0].Address != r.minion+": file.managed "+conf || p.Changes[0].Action != executor.Create || p.Changes[0].Detail != "new" {
		t.Errorf("changes %+v, want both files, created", p.Changes)
	}
	if _, err := os.Stat(conf); !os.IsNotExist(err) {
		t.Fatalf("the plan (test=True) wrote %s: %v", conf, err)
	}

	rec := &recorder{}
	res, err := l.Apply(ctx, spec, p, executor.Observe(rec.report, nil))
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	want := []step{
		{r.minion + ": " + conf, "changed", 1, 2},
		{r.minion + ": " + marker, "changed", 2, 2},
	}
	if got := steps(rec.all()); !reflect.DeepEqual(got, want) {
		t.Errorf("progress\n got %+v\nwant %+v (one per state, from /events)", got, want)
	}
	if !strings.Contains(logs.String(), "streamed=2") {
		t.Errorf("the states were not reported from the event stream:\n%s", logs.String())
	}
	if res.Status != executor.ResultOK || res.Summary != "2 states on "+r.minion+", 2 changed" {
		t.Errorf("result %+v", res)
	}
	if b, err := os.ReadFile(conf); err != nil || string(b) != "port=8080\n" {
		t.Errorf("%s = %q, %v; want the pillar's port", conf, b, err)
	}

	d, err := l.Drift(ctx, spec)
	if err != nil || d.Status != executor.DriftClean {
		t.Fatalf("Drift right after the apply = %+v, %v; want clean", d, err)
	}
	if err := os.WriteFile(conf, []byte("port=9999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err = l.Drift(ctx, spec)
	if err != nil || d.Status != executor.DriftDrifted || len(d.Changes) != 1 || d.Changes[0].Address != r.minion+": file.managed "+conf {
		t.Fatalf("Drift after a hand edit = %+v, %v; want %s drifted", d, err, conf)
	}
	if b, _ := os.ReadFile(conf); string(b) != "port=9999\n" {
		t.Errorf("the drift check changed the file back: %q", b)
	}
	for _, leak := range []string{r.password} {
		if strings.Contains(logs.String(), leak) {
			t.Errorf("the log contains the password")
		}
	}
}

func TestRealFailingStateStopsTheRun(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	// cmd.run only says it would run in test mode; for real it fails, after the files.
	spec := fileSpec("failing", dir, 1, `format-volume:
  cmd.run:
    - name: "echo mkfs.xfs not found >&2; exit 3"
    - require:
      - file: {{ pillar['dir'] }}/volume.marker
after-format:
  file.managed:
    - name: {{ pillar['dir'] }}/after
    - contents: x
    - require:
      - cmd: format-volume
`)
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	rec := &recorder{}
	res, err := l.Apply(context.Background(), spec, p, executor.Observe(rec.report, nil))
	if err == nil {
		t.Fatal("Apply succeeded with a failing state")
	}
	wantAddr := r.minion + ": cmd.run format-volume (echo mkfs.xfs not found >&2; exit 3)"
	if res.Status != executor.ResultFailed || res.Failed == nil || res.Failed.Address != wantAddr {
		t.Errorf("result %+v, want failed at %s", res, wantAddr)
	}
	if !strings.Contains(err.Error(), "cmd.run format-volume") || !strings.Contains(err.Error(), `Command "echo mkfs.xfs not found >&2; exit 3" run`) {
		t.Errorf("error %q, want the state and Salt's comment", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "after")); !os.IsNotExist(err) {
		t.Errorf("the state after the failure ran: %v", err)
	}

	// Rollback by policy re-applies the previous states, for real.
	prev := fileSpec("failing", dir, 7, "")
	msg, err := l.Rollback(context.Background(), spec, &prev, executor.Observe(nil, nil))
	if err != nil || msg != "re-applied the previous Salt states of failing" {
		t.Fatalf("Rollback = %q, %v", msg, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "app.conf")); string(b) != "port=7\n" {
		t.Errorf("after the rollback app.conf = %q, want the previous port", b)
	}
}

func TestRealWrongPasswordIsAConfigurationError(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, func(c *Config) { c.Password = "wrong-password-77" })
	_, err := l.Plan(context.Background(), fileSpec("x", r.dir(t), 1, ""))
	want := "logging in to salt-api as " + r.user + " (eauth " + r.eauth + "): the credentials were refused"
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "wrong-password-77") {
		t.Fatalf("Plan with a wrong password = %v, want %q without the password", err, want)
	}
}

// The contract cases of TestPlanFailsWhenAMinionCannotRun, against the real master.
func TestRealPlanFailsWhenAMinionCannotRun(t *testing.T) {
	r := needSalt(t)
	dir := r.dir(t)
	tests := []struct {
		name    string
		targets []string
		extra   string
		want    string
	}{
		{"render error", nil, "broken: {{ pillar['nope']['deeper'] }}\n", "Rendering SLS 'base:eos.x_"},
		{"unknown minion", []string{r.minion, "node9"}, "", "minion node9 is not known to the Salt master"},
		{"no minion matches", []string{"db*"}, "", `no minion matches glob "db*"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := r.layer(t, nil, func(c *Config) {
				if tt.targets != nil {
					c.Targets = tt.targets
				}
			})
			_, err := l.Plan(context.Background(), fileSpec("x", dir, 1, tt.extra))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Plan error = %v, want %q", err, tt.want)
			}
		})
	}
}
