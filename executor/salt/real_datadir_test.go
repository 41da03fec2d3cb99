package salt

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// On the real minion, a state whose path the minion renders from its own eos_data_dir (as the
// blueprints' local variants do) shows that path whole in the plan and the drift, the diff's
// line naming it too, while a directory the master's pillar secret names under it is masked.
func TestRealPathsUnderTheMinionsDataDirShowWhole(t *testing.T) {
	r := needSalt(t)
	secret := os.Getenv("EOS_TEST_SALT_PILLAR_SECRET")
	if secret == "" {
		t.Fatal("EOS_TEST_SALT_PILLAR_SECRET is not set: start Salt again with scripts/testenv/salt.sh, which puts a secret in the master's pillar")
	}
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	text := `{%- set root = salt['config.get']('eos_data_dir', '') ~ '/' ~ pillar['sub'] %}
eos-datadir-conf:
  file.managed:
    - name: {{ root }}/app.conf
    - contents: |
        data={{ root }}
eos-datadir-secret:
  file.managed:
    - name: {{ root }}/{{ salt['pillar.get']('eos_test_db_password') }}/app.conf
    - makedirs: True
    - contents: x
`
	spec := executor.Spec{Verb: "create", Target: "datadir", Env: "local", Units: []executor.Unit{{
		Service: "datadir",
		Salt:    &executor.SaltPart{State: "datadir.sls", Text: text, Pillar: map[string]any{"sub": filepath.Base(dir)}},
	}}}
	conf := dir + "/app.conf"
	if err := os.WriteFile(conf, []byte("data=/elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := l.Plan(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	d, err := l.Drift(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	for what, changes := range map[string][]executor.Change{"plan": p.Changes, "drift": d.Changes} {
		raw, _ := json.Marshal(changes)
		if strings.Contains(string(raw), secret) {
			t.Errorf("the %s holds the master pillar's secret:\n%s", what, raw)
		}
		byAddr := byAddress(changes)
		c, ok := byAddr[r.minion+": file.managed eos-datadir-conf ("+conf+")"]
		if !ok || c.Salt == nil || c.Salt.Name != conf {
			t.Errorf("%s: the file under eos_data_dir: %+v among %v; want its path whole", what, c, changes)
		} else if !strings.Contains(c.Diff, "\n+data="+dir+"\n") && !strings.HasSuffix(c.Diff, "\n+data="+dir) || !strings.Contains(c.Diff, "-"+secretMasked) {
			t.Errorf("%s: diff of %s:\n%s\nwant the line naming eos_data_dir shown, the old value masked", what, conf, c.Diff)
		}
		if _, ok := byAddr[r.minion+": file.managed eos-datadir-secret ("+secretMasked+"/app.conf)"]; !ok {
			t.Errorf("%s: the path the pillar's secret names: want it masked up to app.conf, among %v", what, changes)
		}
	}
}
