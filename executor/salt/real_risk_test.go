package salt

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/executor"
)

// watchingService is a service state that watches the configuration file fileSpec manages.
// Its process signature is the minion's own, so that Salt finds the service running and a
// fired watch would restart it; the plan (test=True) never restarts anything.
const watchingService = `web:
  service.running:
    - name: eos-demo-web
    - sig: salt-minion
    - watch:
      - file: {{ pillar['dir'] }}/app.conf
`

// A plan on the real master whose configuration file would change names the service its
// watch would restart, and the file that triggers it; when the file already holds what the
// state declares, the watch does not fire and nothing is marked.
func TestRealPlanMarksAServiceRestart(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	conf := filepath.Join(dir, "app.conf")
	for name, text := range map[string]string{"app.conf": "port=8080\n", "volume.marker": "volume\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()

	calm, err := l.Plan(ctx, fileSpec("web", dir, 8080, watchingService))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	for _, c := range calm.Changes {
		if c.Forces != "" || c.Risky() {
			t.Errorf("nothing changes, yet %s is marked: %s %q", c.Address, c.Action, c.Forces)
		}
	}

	p, err := l.Plan(ctx, fileSpec("web", dir, 9090, watchingService))
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	addr := r.minion + ": service.running web (eos-demo-web)"
	var found *executor.Change
	for i, c := range p.Changes {
		if c.Address == addr {
			found = &p.Changes[i]
		}
	}
	if found == nil {
		t.Fatalf("no change for %s among %+v", addr, p.Changes)
	}
	want := "service eos-demo-web would restart (watch: file " + conf + ")"
	if found.Forces != want || found.Action != executor.Update || !found.Disrupts() || found.DataLoss {
		t.Errorf("change %+v, want an update forced by %q, no data loss", *found, want)
	}
	if b, _ := os.ReadFile(conf); string(b) != "port=8080\n" {
		t.Errorf("the plan changed %s: %q", conf, b)
	}
}
