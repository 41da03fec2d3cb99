package salt

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// On the real minion, a state's test-mode result reaches the plan as data (id, function,
// name, changes), and a secret from the master's own pillar (a value Eos never saw) that
// states write into a file and a grain is masked in those changes as in the file's diff:
// the secret is nowhere in the plan, the policy set's data included.
func TestRealSaltChangesAsDataNeverHoldAMasterPillarSecret(t *testing.T) {
	r := needSalt(t)
	secret := os.Getenv("EOS_TEST_SALT_PILLAR_SECRET")
	if secret == "" {
		t.Fatal("EOS_TEST_SALT_PILLAR_SECRET is not set: start Salt again with scripts/testenv/salt.sh, which puts a secret in the master's pillar")
	}
	l := r.layer(t, nil, nil)
	// The minion's states render with the secret: the master's pillar serves it.
	served, err := l.api.lowstate(context.Background(), map[string]any{"client": "local", "tgt": r.minion, "fun": "pillar.items"})
	if err != nil || len(served) == 0 || !strings.Contains(string(served[0]), secret) {
		t.Fatalf("the master's pillar does not serve the secret to %s: %v, %s", r.minion, err, served)
	}
	dir := r.dir(t)
	db := dir + "/db.conf"
	if err := os.WriteFile(db, []byte("host=db1\ndb_password=old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	extra := `{{ pillar['dir'] }}/db.conf:
  file.managed:
    - contents: |
        host=db1
        db_password={{ salt['pillar.get']('eos_test_db_password') }}
eos-changedata-rendered-name:
  file.managed:
    - name: {{ pillar['dir'] }}/{{ salt['pillar.get']('eos_test_db_password') }}.txt
    - contents: x
eos-changedata-grain:
  grains.present:
    - name: eos_changedata_grain
    - value: "{{ salt['pillar.get']('eos_test_db_password') }}"
`
	p, err := l.Plan(context.Background(), fileSpec("changedata", dir, 8080, extra))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(p)
	if strings.Contains(string(raw), secret) {
		t.Errorf("the plan holds the master pillar's secret:\n%s", raw)
	}
	var file, grain, conf, named *executor.SaltState
	for _, c := range p.Changes {
		if c.Salt == nil {
			t.Errorf("%s carries no data", c.Address)
			continue
		}
		if c.Salt.ID == "eos-changedata-rendered-name" {
			named = c.Salt
		}
		switch c.Salt.Name {
		case db:
			file = c.Salt
		case "eos_changedata_grain":
			grain = c.Salt
		case dir + "/app.conf":
			conf = c.Salt
		}
	}
	// A state whose name the secret renders is named "<secret masked>", its id kept.
	if named == nil || named.Name != secretMasked || named.Function != "file.managed" {
		t.Errorf("the state named with the secret: %+v; want its name masked, its id shown", named)
	}
	if file == nil || grain == nil || conf == nil {
		t.Fatalf("the plan's changes lack the db file, the grain or the new file: %+v", p.Changes)
	}
	t.Logf("db.conf: %+v\ngrain: %+v\napp.conf: %+v", *file, *grain, *conf)
	if file.Minion != r.minion || file.ID != db || file.Function != "file.managed" {
		t.Errorf("db.conf's state as data: %+v", *file)
	}
	if d, _ := file.Changes["diff"].(string); !strings.Contains(d, " host=db1") || !strings.Contains(d, "+"+secretMasked) {
		t.Errorf("db.conf's changes.diff = %q; want the kept line shown and the secret's masked", d)
	}
	if grain.Function != "grains.present" || grain.ID != "eos-changedata-grain" {
		t.Errorf("the grain's state as data: %+v", *grain)
	}
	if conf.Function != "file.managed" || len(conf.Changes) == 0 {
		t.Errorf("a new file's state as data: %+v; want Salt's changes for it", *conf)
	}
}
