package nomad

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// make run pauses its agent when Eos exits (scripts/run.sh, nomad.sh pause): the agent and the
// tasks it runs stop, its data stays, and started again it has the job and runs it again, so
// the next session finds no drift. (A -dev agent forgot every job, and each service drifted.)
func TestAPausedAgentRunsItsJobsAgain(t *testing.T) {
	t.Parallel()
	a := startDurableAgent(t)
	l, err := New(Config{Address: a.addr, DeployTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{layer: l, api: l.client, env: "paused", services: map[string]bool{}}
	const svc = "sleeper"
	s := e.spec(svc, nil)
	e.apply(t, s, e.plan(t, s))
	e.waitAlloc(t, svc, func(x *api.AllocationListStub) bool { return x.ClientStatus == "running" })

	a.run(t, "pause")
	paused := time.Now()
	data := filepath.Join(a.dir, "data")
	if left := processesUnder(data); len(left) > 0 {
		t.Fatalf("processes still run under %s after the pause: %v", data, left)
	}
	if _, err := os.Stat(filepath.Join(a.dir, "durable")); err != nil {
		t.Fatalf("the pause forgot the agent: %v", err)
	}

	a.run(t, "start-agent")
	e.waitAlloc(t, svc, func(x *api.AllocationListStub) bool {
		ts := x.TaskStates["main"]
		return x.ClientStatus == "running" && ts != nil && ts.State == "running" && ts.StartedAt.After(paused)
	})
	if d, err := l.Drift(testCtx(t), s); err != nil || d.Status != executor.DriftClean {
		t.Errorf("drift after the agent came back = %+v, %v; want clean", d, err)
	}
}

// processesUnder lists the processes whose working directory is under dir.
func processesUnder(dir string) []string {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, p := range procs {
		if cwd, err := os.Readlink(filepath.Join(p, "cwd")); err == nil && strings.HasPrefix(cwd, dir+"/") {
			out = append(out, filepath.Base(p)+" in "+cwd)
		}
	}
	return out
}
