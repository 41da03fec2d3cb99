package salt

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// failuresOf reads the states that say the apply would fail from a minion's real test-mode
// return (recorded from Salt 3006.9: a file whose source does not exist, and a file that
// requires it). The failure names the minion, the state and Salt's reason; the requisite's
// "One or more requisite failed" is left out while the failure it follows from is named, and
// kept when it is all there is.
func TestFailuresOfRecordedTestModeReturn(t *testing.T) {
	raw, err := os.ReadFile("testdata/test_mode_failure.json")
	if err != nil {
		t.Fatal(err)
	}
	m := parseReturn("eos-minion", raw)
	want := []string{"eos-minion: file.managed /srv/eos/data/gitea/app.ini: Source file salt://eos-missing/app.ini not found in saltenv 'base'"}
	if got := failuresOf(m); !reflect.DeepEqual(got, want) {
		t.Errorf("failures\n got %q\nwant %q", got, want)
	}

	var states map[string]json.RawMessage
	if err := json.Unmarshal(raw, &states); err != nil {
		t.Fatal(err)
	}
	delete(states, "file_|-/srv/eos/data/gitea/app.ini_|-/srv/eos/data/gitea/app.ini_|-managed")
	only, _ := json.Marshal(states)
	want = []string{"eos-minion: file.managed /srv/eos/data/gitea/ready: One or more requisite failed: eos.failing_99d91c021eea./srv/eos/data/gitea/app.ini"}
	if got := failuresOf(parseReturn("eos-minion", only)); !reflect.DeepEqual(got, want) {
		t.Errorf("failures of requisites alone\n got %q\nwant %q", got, want)
	}

	var clean map[string]json.RawMessage
	_ = json.Unmarshal(raw, &clean)
	for k := range clean {
		if k != "file_|-/srv/eos/data/gitea/app.conf_|-/srv/eos/data/gitea/app.conf_|-managed" {
			delete(clean, k)
		}
	}
	ok, _ := json.Marshal(clean)
	if got := failuresOf(parseReturn("eos-minion", ok)); len(got) != 0 {
		t.Errorf("a state that would change counts as a failure: %q", got)
	}
}
