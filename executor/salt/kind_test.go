package salt

import (
	"encoding/json"
	"testing"

	"github.com/eosbot/eos/executor"
)

// Creates, changes and removals are told apart from Salt's test-mode changes, as Terraform's
// plan tells them: a file created used to read "update".
func TestKindOfTellsCreatesChangesAndRemovals(t *testing.T) {
	for _, c := range []struct {
		fun, changes string
		want         executor.Action
		detail       string
	}{
		{"managed", `{"newfile": "/srv/grafana/grafana.ini"}`, executor.Create, "new"},
		{"directory", `{"/srv/grafana": {"directory": "new"}}`, executor.Create, "new"},
		{"managed", `{"diff": "--- \n+++ \n@@ -1,2 +1,3 @@\n port=3000\n-a=1\n+a=2\n+b=3\n"}`, executor.Update, "content +2 −1 lines"},
		{"absent", `{"removed": "/srv/grafana/old.ini"}`, executor.Delete, "removed"},
		{"absent", `{}`, executor.Delete, "removed"},
		{"running", `{}`, executor.Update, ""},
	} {
		raw := json.RawMessage(`{"file_|-x_|-/srv/x_|-` + c.fun + `": {"result": null, "changes": ` + c.changes + `, "comment": "is set to be changed", "__run_num__": 0}}`)
		m := parseReturn("eos-minion", raw)
		if len(m.States) != 1 {
			t.Fatalf("%s %s: %+v", c.fun, c.changes, m)
		}
		if s := m.States[0]; s.Kind != c.want || s.Detail != c.detail {
			t.Errorf("%s %s: kind %s, detail %q; want %s, %q", c.fun, c.changes, s.Kind, s.Detail, c.want, c.detail)
		}
	}
	if got := minionSummary(parseReturn("eos-minion", json.RawMessage(`{
		"file_|-data_|-/srv/a/.eos-volume_|-managed": {"result": null, "changes": {"newfile": "/srv/a/.eos-volume"}, "__run_num__": 0},
		"file_|-conf_|-/srv/a/a.ini_|-managed": {"result": null, "changes": {"diff": "+x"}, "__run_num__": 1},
		"file_|-old_|-/srv/a/old_|-absent": {"result": null, "changes": {"removed": "/srv/a/old"}, "__run_num__": 2}}`))); got != "+1 ~1 −1 on eos-minion: data, conf, old" {
		t.Errorf("summary = %q", got)
	}
	if got := relative([]string{"/srv/a/app.conf", "/srv/a/sub/volume.marker", "pkg-x"}); got[0] != "app.conf" || got[1] != "sub/volume.marker" || got[2] != "pkg-x" {
		t.Errorf("relative = %q", got)
	}
}
