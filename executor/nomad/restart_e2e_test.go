package nomad

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// durableAgent is a Nomad agent of the test's own, started by scripts/testenv/nomad.sh
// start-durable: unlike the shared -dev agent it keeps its jobs across a restart, and the
// test may stop it without disturbing other tests.
type durableAgent struct {
	dir, addr string
}

const nomadScript = "../../scripts/testenv/nomad.sh"

// startDurableAgent starts the agent, where the Nomad end-to-end tests run (see agentAddr),
// and stops it when the test ends.
func startDurableAgent(t *testing.T) *durableAgent {
	t.Helper()
	agentAddr(t)
	dir := t.TempDir()
	a := &durableAgent{dir: dir}
	t.Cleanup(func() { a.run(t, "stop") })
	a.run(t, "start-durable")
	env, err := os.ReadFile(filepath.Join(dir, "env"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`EOS_TEST_NOMAD_ADDR=(\S+)`).FindSubmatch(env)
	if m == nil {
		t.Fatalf("no address in %s/env: %s", dir, env)
	}
	a.addr = string(m[1])
	return a
}

func (a *durableAgent) run(t *testing.T, cmd string) {
	t.Helper()
	out, err := exec.Command(nomadScript, cmd, a.dir).CombinedOutput()
	if err != nil {
		t.Fatalf("nomad.sh %s: %v\n%s", cmd, err, out)
	}
}

// slowHealth makes a test job healthy only after its task ran for minHealthy ("10s"), so the
// agent can be stopped while Eos waits for health.
func slowHealth(minHealthy string) string {
	t := strings.Replace(testTemplate, `min_healthy_time  = "1s"`, `min_healthy_time  = "`+minHealthy+`"`, 1)
	return strings.Replace(t, `    healthy_deadline  = "15s"
    progress_deadline = "30s"`, `    healthy_deadline  = "2m"
    progress_deadline = "3m"`, 1)
}

// applyAsync runs Apply in the background and passes its events on, in order.
func applyAsync(ctx context.Context, l *Layer, s executor.Spec, p executor.LayerPlan) (<-chan executor.Event, <-chan applied) {
	evs := make(chan executor.Event, 1000)
	done := make(chan applied, 1)
	go func() {
		res, err := l.Apply(ctx, s, p, executor.Observe(func(e executor.Event) { evs <- e }, nil))
		done <- applied{res, err}
	}()
	return evs, done
}

type applied struct {
	res executor.LayerResult
	err error
}

// waitEvent reads events until one's message matches re, failing the test if Apply ends first.
func waitEvent(t *testing.T, evs <-chan executor.Event, done <-chan applied, re *regexp.Regexp, seen *[]string) executor.Event {
	t.Helper()
	for {
		select {
		case e := <-evs:
			*seen = append(*seen, e.Message)
			if re.MatchString(e.Message) {
				return e
			}
		case r := <-done:
			t.Fatalf("Apply ended before an event matching %q: %+v, %v; events %q", re, r.res, r.err, *seen)
		}
	}
}

// The Nomad agent restarting while Eos waits for a new job to be healthy (an upgrade, a
// systemd restart) does not fail the run: Eos says it is retrying, follows the same
// deployment once the agent is back, and never registers the job again.
func TestAgentRestartDuringHealthWait(t *testing.T) {
	t.Parallel()
	a := startDurableAgent(t)
	l, err := New(Config{Address: a.addr, DeployTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{layer: l, env: "restart", services: map[string]bool{}}
	const svc = "phoenix"
	s := e.spec(svc, nil)
	s.Units[0].Nomad.Template = slowHealth("10s")
	p, err := l.Plan(testCtx(t), s)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	evs, done := applyAsync(testCtx(t), l, s, p)
	var seen []string
	waitEvent(t, evs, done, regexp.MustCompile(`^0/1 allocations healthy$`), &seen)
	a.run(t, "stop-agent")
	notice := waitEvent(t, evs, done, regexp.MustCompile(`^Nomad not answering( for \d+ s)?, retrying$`), &seen)
	if notice.Layer != executor.Nomad || notice.Done != 0 || notice.Total != 1 {
		t.Errorf("notice %+v: want layer nomad, 0/1", notice)
	}
	a.run(t, "start-agent")
	var r applied
	for r.res.Layer == "" {
		select {
		case ev := <-evs:
			seen = append(seen, ev.Message)
		case r = <-done:
		}
	}
	if r.err != nil || r.res.Status != executor.ResultOK || r.res.Summary != e.id(svc)+" 1/1 healthy" {
		t.Fatalf("Apply = %+v, %v; want 1/1 healthy after the restart (events %q)", r.res, r.err, seen)
	}
	t.Logf("events %q", seen)
	versions, _, _, err := l.client.Jobs().Versions(e.id(svc), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 1 || *versions[0].Version != 0 || !*versions[0].Stable {
		t.Errorf("job versions = %d, first %d; want the one version Eos registered, stable", len(versions), *versions[0].Version)
	}
}

// An agent that is not back before the layer's deadline leaves the outcome unknown: the error
// says which version may have been applied and which command tells how its deployment ended.
func TestAgentGoneUntilDeadlineIsUnknown(t *testing.T) {
	t.Parallel()
	a := startDurableAgent(t)
	// The job cannot be healthy before the deadline, whenever the agent stops.
	l, err := New(Config{Address: a.addr, DeployTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{layer: l, env: "gone", services: map[string]bool{}}
	const svc = "orphan"
	s := e.spec(svc, nil)
	s.Units[0].Nomad.Template = slowHealth("60s")
	p, err := l.Plan(testCtx(t), s)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	evs, done := applyAsync(testCtx(t), l, s, p)
	var seen []string
	waitEvent(t, evs, done, regexp.MustCompile(`^0/1 allocations healthy$`), &seen)
	a.run(t, "stop-agent")
	r := <-done
	var unknown *executor.UnknownError
	if !errors.As(r.err, &unknown) || !errors.Is(r.err, executor.ErrOutcomeUnknown) || r.res.Status != executor.ResultUnknown {
		t.Fatalf("Apply = %+v, %v; want an unknown outcome", r.res, r.err)
	}
	if r.res.Check != unknown.Check || r.res.Error != unknown.Message() {
		t.Errorf("result %+v does not carry the check and message of %v", r.res, unknown)
	}
	t.Logf("result: %s", unknown.Message())
	if unknown.Applied != "version 0 of job "+e.id(svc) {
		t.Errorf("applied = %q", unknown.Applied)
	}
	if !strings.Contains(unknown.Error(), "Nomad stopped answering") {
		t.Errorf("error = %q, want why Eos cannot tell", unknown.Error())
	}
	a.run(t, "start-agent")
	d, _, err := l.client.Jobs().LatestDeployment(e.id(svc), nil)
	if err != nil || d == nil {
		t.Fatalf("latest deployment: %v, %v", d, err)
	}
	if want := "nomad deployment status " + d.ID; unknown.Check != want {
		t.Errorf("check = %q, want %q", unknown.Check, want)
	}
}

// A rollback that meets the agent restarting waits for it and reverts once: the failed
// version is not left running because the agent was away for a few seconds.
func TestRollbackThroughAgentRestart(t *testing.T) {
	t.Parallel()
	a := startDurableAgent(t)
	l, err := New(Config{Address: a.addr, DeployTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{layer: l, env: "undo", services: map[string]bool{}}
	const svc = "undo"
	good := e.spec(svc, nil)
	e.apply(t, good, e.plan(t, good))
	bad := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "exit 1"}})
	if res, err := l.Apply(testCtx(t), bad, e.plan(t, bad), executor.Observe(nil, nil)); err == nil {
		t.Fatalf("Apply of a failing job = %+v; want a failure", res)
	}
	a.run(t, "stop-agent")
	evs := make(chan executor.Event, 1000)
	type rolledBack struct {
		note string
		err  error
	}
	done := make(chan rolledBack, 1)
	go func() {
		note, err := l.Rollback(testCtx(t), bad, nil, executor.Observe(func(ev executor.Event) { evs <- ev }, nil))
		done <- rolledBack{note, err}
	}()
	var seen []string
	for notified := false; !notified; {
		select {
		case ev := <-evs:
			seen = append(seen, ev.Message)
			notified = strings.HasPrefix(ev.Message, "Nomad not answering")
		case r := <-done:
			t.Fatalf("Rollback ended while the agent was stopped: %q, %v (events %q)", r.note, r.err, seen)
		}
	}
	a.run(t, "start-agent")
	r := <-done
	if want := "reverted job " + e.id(svc) + " to version 0 (1/1 healthy)"; r.err != nil || r.note != want {
		t.Fatalf("Rollback = %q, %v; want %q", r.note, r.err, want)
	}
	versions, _, _, err := l.client.Jobs().Versions(e.id(svc), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 3 || *versions[0].Version != 2 || !*versions[0].Stable {
		t.Errorf("%d job versions, newest %d stable %v; want 3 (good, bad, the one revert), the newest stable", len(versions), *versions[0].Version, *versions[0].Stable)
	}
}

// A job that finds no ready node (its client still starting after the agent restarted) is
// waited for, not failed: Nomad places it once a node is ready. The node is made ineligible
// to stand for one that is starting.
func TestNoReadyNodeIsWaitedFor(t *testing.T) {
	t.Parallel()
	a := startDurableAgent(t)
	l, err := New(Config{Address: a.addr, DeployTimeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	e := &e2e{layer: l, env: "wait", services: map[string]bool{}}
	const svc = "patient"
	s := e.spec(svc, nil)
	p := e.plan(t, s)
	nodes, _, err := l.client.Nodes().List(nil)
	if err != nil || len(nodes) != 1 {
		t.Fatalf("nodes = %v, %v; want the agent's one", nodes, err)
	}
	eligible := func(on bool) {
		if _, err := l.client.Nodes().ToggleEligibility(nodes[0].ID, on, nil); err != nil {
			t.Fatalf("setting the node's eligibility to %v: %v", on, err)
		}
	}
	eligible(false)
	evs, done := applyAsync(testCtx(t), l, s, p)
	var seen []string
	waitEvent(t, evs, done, regexp.MustCompile(`^no Nomad node ready to run it yet, waiting$`), &seen)
	eligible(true)
	r := <-done
	if r.err != nil || r.res.Status != executor.ResultOK || r.res.Summary != e.id(svc)+" 1/1 healthy" {
		t.Fatalf("Apply = %+v, %v; want 1/1 healthy once the node is ready (events %q)", r.res, r.err, seen)
	}
}
