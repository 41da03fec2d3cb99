package salt

import (
	"strings"
	"testing"
	"time"
)

// Each state result is one output line, once, saying what happened to it.
func TestStateResultOutputLines(t *testing.T) {
	ok, bad := true, false
	l := &Layer{now: func() time.Time { return time.Unix(0, 0) }}
	p := newUnitProgress(l, "nextcloud", &tally{}, 3, nil)
	var lines []string
	p.output = func(line string) { lines = append(lines, line) }
	p.state("node1", stateResult{Module: "file", Fun: "managed", ID: "/etc/x", Name: "/etc/x", Result: &ok, Changed: true, RunNum: 0})
	p.ret(minionReturn{Minion: "node1", States: []stateResult{
		{Module: "file", Fun: "managed", ID: "/etc/x", Name: "/etc/x", Result: &ok, Changed: true, RunNum: 0}, // streamed already
		{Module: "pkg", Fun: "installed", ID: "nginx", Name: "nginx", Result: &ok, RunNum: 1},
		{Module: "service", Fun: "running", ID: "nginx", Name: "nginx", Result: &bad, Comment: "unit not found\nmore", RunNum: 2},
	}})
	want := "node1: file.managed /etc/x: changed|node1: pkg.installed nginx: unchanged|node1: service.running nginx: failed: unit not found …"
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("lines\n got %s\nwant %s", got, want)
	}
}
