package nomad

import (
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// Each new deployment or allocation status of a job is one output line; repeats are not.
func TestEmitterOutputLines(t *testing.T) {
	var events int
	e := newEmitter(func(executor.Event) { events++ }, unitPlan{Service: "grafana", JobID: "grafana", Action: actionRegister, Total: 2})
	var lines []string
	e.output = func(line string) { lines = append(lines, line) }
	e.send(0, "registered")
	e.send(1, "1/2 allocations healthy")
	e.send(1, "1/2 allocations healthy")
	e.send(2, "2/2 allocations healthy")
	want := "job grafana: registered|job grafana: 1/2 allocations healthy|job grafana: 2/2 allocations healthy"
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("lines\n got %s\nwant %s", got, want)
	}
	if events != 3 {
		t.Errorf("%d events, want 3", events)
	}
}
