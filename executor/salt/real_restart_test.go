package salt

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// saltSh runs scripts/testenv/salt.sh with args and the test's STATE_DIR appended.
func (r realSalt) saltSh(t *testing.T, args ...string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "scripts", "testenv", "salt.sh")
	out, err := exec.Command(script, append(args, r.state)...).CombinedOutput()
	if err != nil {
		t.Fatalf("salt.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// appliesOf counts the jobs in the master's job cache that ran sls for real with dir in its
// pillar: how many times the layer submitted it.
func appliesOf(t *testing.T, l *Layer, sls, dir string) int {
	t.Helper()
	var out struct {
		Return []map[string]struct {
			Function  string `json:"Function"`
			Arguments []any  `json:"Arguments"`
		} `json:"return"`
	}
	if err := l.api.call(context.Background(), http.MethodGet, "/jobs", nil, &out); err != nil || len(out.Return) == 0 {
		t.Fatalf("listing jobs: %v", err)
	}
	n := 0
	for _, j := range out.Return[0] {
		if j.Function != "state.apply" || len(j.Arguments) != 2 || j.Arguments[0] != sls {
			continue
		}
		kw, _ := j.Arguments[1].(map[string]any)
		pillar, _ := kw["pillar"].(map[string]any)
		if kw["test"] == false && pillar["dir"] == dir {
			n++
		}
	}
	return n
}

// salt-api stopped while a job runs and started again: the run follows the job to its end
// without submitting it again.
func TestRealApplyFollowsItsJobThroughASaltAPIRestart(t *testing.T) {
	r := needSalt(t)
	logs := &syncBuffer{}
	l := r.layer(t, logs, nil)
	dir := r.dir(t)
	spec := fileSpec("restart", dir, 7, "slow:\n  cmd.run:\n    - name: sleep 3\n")
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	started, noticed := make(chan struct{}), make(chan struct{})
	var first, tell sync.Once
	rec := &recorder{on: func(e executor.Event) {
		switch {
		case e.Resource != "":
			first.Do(func() { close(started) })
		case strings.Contains(e.Message, "not answering"):
			tell.Do(func() { close(noticed) })
		}
	}}
	type result struct {
		res executor.LayerResult
		err error
	}
	done := make(chan result, 1)
	begin := time.Now()
	go func() {
		res, err := l.Apply(context.Background(), spec, p, executor.Observe(rec.report, nil))
		done <- result{res, err}
	}()
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			r.saltSh(t, "api", "start") // leave salt-api running for the other tests
		}
	})
	wait := func(ch chan struct{}, what string) {
		select {
		case <-ch:
		case res := <-done:
			t.Fatalf("Apply ended (%+v, %v) before %s; logs:\n%s", res.res, res.err, what, logs.String())
		case <-time.After(time.Minute):
			t.Fatalf("no %s within a minute; logs:\n%s", what, logs.String())
		}
	}
	wait(started, "first state")
	r.saltSh(t, "api", "stop")
	stopped := time.Now()
	wait(noticed, "notice that salt-api is not answering")
	r.saltSh(t, "api", "start")
	restarted = true
	res := <-done
	t.Logf("apply took %s, %s of it from salt-api's stop", time.Since(begin).Round(time.Millisecond), time.Since(stopped).Round(time.Millisecond))
	if res.err != nil || res.res.Status != executor.ResultOK || res.res.Done != 3 {
		t.Fatalf("Apply = %+v, %v; want its 3 states applied; logs:\n%s", res.res, res.err, logs.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "app.conf")); err != nil || strings.TrimSpace(string(b)) != "port=7" {
		t.Errorf("app.conf = %q, %v; want the state applied", b, err)
	}
	_, sls, _ := l.slsFor(spec.Units[0])
	if n := appliesOf(t, l, sls, dir); n != 1 {
		t.Errorf("the master ran %s %d times for real, want once", sls, n)
	}
	var notices []string
	for _, e := range rec.all() {
		if e.Resource == "" {
			notices = append(notices, e.Message)
		}
	}
	t.Logf("notices: %q", notices)
	if len(notices) == 0 || !strings.HasPrefix(notices[0], "salt-api not answering") {
		t.Errorf("notices %q, want salt-api named as not answering", notices)
	}
}

// The master stopped while a job runs and started again: the run either sees the job end or
// says it cannot know how it ended (the minion's return may be lost with the master), and
// says what it waits for meanwhile; it never fails or rolls back what it did not see.
func TestRealApplyThroughAMasterRestartEndsSeenOrUnknown(t *testing.T) {
	r := needSalt(t)
	logs := &syncBuffer{}
	l := r.layer(t, logs, func(c *Config) { c.Timeout = 90 * time.Second })
	l.waitNotice = 5 * time.Second
	dir := r.dir(t)
	spec := fileSpec("mrestart", dir, 8, "slow:\n  cmd.run:\n    - name: sleep 3\n")
	p, err := l.Plan(context.Background(), spec)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	started, noticed := make(chan struct{}), make(chan struct{})
	var first, tell sync.Once
	rec := &recorder{on: func(e executor.Event) {
		switch {
		case e.Resource != "":
			first.Do(func() { close(started) })
		default:
			tell.Do(func() { close(noticed) })
		}
	}}
	type result struct {
		res executor.LayerResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := l.Apply(context.Background(), spec, p, executor.Observe(rec.report, nil))
		done <- result{res, err}
	}()
	restarted := false
	t.Cleanup(func() {
		if !restarted {
			r.saltSh(t, "master", "start")
		}
		r.waitMinion(t, l, r.minion) // the other tests need the minion back
	})
	wait := func(ch chan struct{}, what string) {
		select {
		case <-ch:
		case res := <-done:
			t.Fatalf("Apply ended (%+v, %v) before %s; logs:\n%s", res.res, res.err, what, logs.String())
		case <-time.After(time.Minute):
			t.Fatalf("no %s within a minute; logs:\n%s", what, logs.String())
		}
	}
	wait(started, "first state")
	r.saltSh(t, "master", "stop")
	stopped := time.Now()
	wait(noticed, "notice")
	r.saltSh(t, "master", "start")
	restarted = true
	res := <-done
	t.Logf("ended %s after the master's stop: %+v, %v", time.Since(stopped).Round(time.Millisecond), res.res, res.err)
	var notices []string
	for _, e := range rec.all() {
		if e.Resource == "" {
			notices = append(notices, e.Message)
		}
	}
	t.Logf("notices: %q", notices)
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "still run the job") || strings.Contains(line, "slow to answer") {
			t.Log(line) // what the minion said when asked whether it still ran the job
		}
	}
	var unknown *executor.UnknownError
	switch {
	case res.err == nil && res.res.Status == executor.ResultOK && res.res.Done == 3:
	case errors.As(res.err, &unknown) && strings.HasPrefix(unknown.Check, "salt-run jobs.lookup_jid ") &&
		res.res.Status == executor.ResultUnknown && res.res.Failed == nil:
	default:
		t.Fatalf("Apply = %+v, %v; want it applied or unknown; logs:\n%s", res.res, res.err, logs.String())
	}
	_, sls, _ := l.slsFor(spec.Units[0])
	if n := appliesOf(t, l, sls, dir); n != 1 {
		t.Errorf("the master ran %s %d times for real, want once", sls, n)
	}
}
