package salt

import (
	"context"
	"os"
	"reflect"
	"testing"
)

// A state that fails in Salt's test mode makes the plan one that cannot be approved: the
// real minion's dry run of a file whose source does not exist comes back as a failure naming
// the minion, the state and Salt's reason; the state that requires it is left out (its reason
// is the other's); and nothing is written.
func TestRealPlanNamesStatesThatWouldFail(t *testing.T) {
	r := needSalt(t)
	l := r.layer(t, nil, nil)
	dir := r.dir(t)
	spec := fileSpec("failing", dir, 8080, `{{ pillar['dir'] }}/app.ini:
  file.managed:
    - source: salt://eos-missing/app.ini
{{ pillar['dir'] }}/ready:
  file.managed:
    - contents: ready
    - require:
      - file: {{ pillar['dir'] }}/app.ini
`)
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	want := []string{r.minion + ": file.managed " + dir + "/app.ini: Source file salt://eos-missing/app.ini not found in saltenv 'base'"}
	if !reflect.DeepEqual(p.Failures, want) {
		t.Errorf("failures\n got %q\nwant %q", p.Failures, want)
	}
	if _, err := os.Stat(dir + "/app.conf"); !os.IsNotExist(err) {
		t.Errorf("the plan wrote %s/app.conf: %v", dir, err)
	}
}
