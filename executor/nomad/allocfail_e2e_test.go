package nomad

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// slowDeadlines makes a test job's deployment wait minutes for health, as a real service's
// does, so an apply that returns in seconds returned because it saw the failures, not because
// a deadline passed.
func slowDeadlines(restart, reschedule string) string {
	t := strings.Replace(testTemplate, `    healthy_deadline  = "15s"
    progress_deadline = "30s"`, `    healthy_deadline  = "4m"
    progress_deadline = "5m"`, 1)
	t = strings.Replace(t, `    restart {
      attempts = 0
      mode     = "fail"
    }`, restart, 1)
	return strings.Replace(t, `    reschedule {
      attempts  = 0
      unlimited = false
    }`, reschedule, 1)
}

// A task that exits 1 is reported as each attempt fails, and the apply ends as soon as Nomad
// will not restart or reschedule it, long before the deployment's 5-minute progress deadline.
func TestFailingAllocationIsReportedAndEndsTheWait(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "badjob"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "exit 1"}})
	s.Units[0].Nomad.Template = slowDeadlines(`    restart {
      attempts = 1
      delay    = "1s"
      mode     = "fail"
    }`, `    reschedule {
      attempts  = 0
      unlimited = false
    }`)
	ev := &events{}
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(ev.report, nil))
	took := time.Since(start)
	t.Logf("Apply returned after %s: %s; events %q", took.Round(time.Millisecond), res.Error, ev.messages())
	if err == nil || res.Status != executor.ResultFailed {
		t.Fatalf("Apply = %+v, %v; want a failure", res, err)
	}
	if took > 60*time.Second {
		t.Errorf("Apply took %s with a 5-minute progress deadline: it waited for the deadline, not for the failures", took)
	}
	restart := regexp.MustCompile(`^allocation [0-9a-f]{8}: task main exited 1 \(restart 1 of 1\)$`)
	if !anyMatch(ev.messages(), restart) {
		t.Errorf("events = %q, want the restart reported as it happened", ev.messages())
	}
	final := regexp.MustCompile(`^nomad job ` + regexp.QuoteMeta(e.id(svc)) + `: allocation [0-9a-f]{8}: task main exited 1 after 1 restart; no allocation of version 0 can become healthy`)
	if !final.MatchString(res.Error) {
		t.Errorf("error = %q, want the allocation, the exit code and the restarts", res.Error)
	}
	for _, m := range ev.all {
		if strings.HasPrefix(m.Message, "allocation ") && (m.Layer != executor.Nomad || m.Total != 1 || m.Done != 0 || !m.Notice) {
			t.Errorf("failure event %+v: want layer nomad, 0/1, a notice the progress post shows", m)
		}
	}
	if n := count(ev.messages(), restart); n != 1 {
		t.Errorf("the restart was reported %d times, want once: %q", n, ev.messages())
	}
}

// A failed allocation that Nomad will reschedule is not the end: the wait goes on with its
// replacement, and ends when the replacement failed too and no reschedule is left.
func TestRescheduledAllocationKeepsTheWaitGoing(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "resched"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "exit 4"}})
	s.Units[0].Nomad.Template = slowDeadlines(`    restart {
      attempts = 0
      mode     = "fail"
    }`, `    reschedule {
      attempts       = 1
      interval       = "1h"
      delay          = "5s"
      delay_function = "constant"
      unlimited      = false
    }`)
	ev := &events{}
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(ev.report, nil))
	t.Logf("Apply returned after %s: %s; events %q", time.Since(start).Round(time.Millisecond), res.Error, ev.messages())
	if err == nil || !strings.Contains(res.Error, "task main exited 4 and was not restarted; no allocation of version 0 can become healthy") {
		t.Fatalf("Apply = %+v, %v; want the failure of the last allocation", res, err)
	}
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("Apply took %s", took)
	}
	allocs := map[string]bool{}
	failed := regexp.MustCompile(`^allocation ([0-9a-f]{8}): task main exited 4 and was not restarted$`)
	for _, m := range ev.messages() {
		if g := failed.FindStringSubmatch(m); g != nil {
			allocs[g[1]] = true
		}
	}
	if len(allocs) != 2 {
		t.Errorf("events = %q, want the failures of the allocation and of its replacement", ev.messages())
	}
}

// A job that Nomad reschedules without limit (its default for services) still ends early when
// the replacement is planned for after the progress deadline: it could not save the deployment.
func TestRescheduleAfterTheDeadlineEndsTheWait(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "toolate"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "exit 5"}})
	s.Units[0].Nomad.Template = slowDeadlines(`    restart {
      attempts = 0
      mode     = "fail"
    }`, `    reschedule {
      unlimited      = true
      delay          = "10m"
      delay_function = "constant"
    }`)
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(nil, nil))
	t.Logf("Apply returned after %s: %s", time.Since(start).Round(time.Millisecond), res.Error)
	if err == nil || !strings.HasSuffix(res.Error, "task main exited 5 and was not restarted; no allocation of version 0 can become healthy: Nomad reschedules it only after the deployment's progress deadline") {
		t.Fatalf("Apply = %+v, %v; want the failure and the late reschedule", res, err)
	}
	if took := time.Since(start); took > 60*time.Second {
		t.Errorf("Apply took %s", took)
	}
}

// A job that Nomad reschedules without limit (its default for services) ends the wait as soon
// as the replacement Nomad placed fails the way the first allocation did: the failure is the
// version's, not the placement's, and Nomad would only repeat it until the progress deadline.
// Before, this wait lasted until the deployment's deadline or DeployTimeout (90 s here).
func TestUnlimitedReschedulingEndsWhenTheReplacementFailsTheSameWay(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "again"
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", "exit 3"}})
	// 5 s is the shortest delay Nomad 1.4 accepts; services default to 30 s, doubling.
	s.Units[0].Nomad.Template = slowDeadlines(`    restart {
      attempts = 0
      mode     = "fail"
    }`, `    reschedule {
      unlimited      = true
      delay          = "5s"
      delay_function = "constant"
    }`)
	ev := &events{}
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(ev.report, nil))
	took := time.Since(start)
	t.Logf("Apply returned after %s: %s; events %q", took.Round(time.Millisecond), res.Error, ev.messages())
	final := regexp.MustCompile(`^nomad job ` + regexp.QuoteMeta(e.id(svc)) + `: allocation ([0-9a-f]{8}): task main exited 3 and was not restarted; no allocation of version 0 can become healthy: it replaced allocation ([0-9a-f]{8}), which failed the same way; Nomad would keep rescheduling it every 5s: giving up$`)
	g := final.FindStringSubmatch(res.Error)
	if err == nil || res.Status != executor.ResultFailed || g == nil {
		t.Fatalf("Apply = %+v, %v; want the replacement's failure and that Nomad would keep rescheduling it", res, err)
	}
	if took > 45*time.Second {
		t.Errorf("Apply took %s: it waited for more than the replacement's failure", took)
	}
	failed := regexp.MustCompile(`^allocation ([0-9a-f]{8}): task main exited 3 and was not restarted$`)
	var allocs []string
	for _, m := range ev.messages() {
		if f := failed.FindStringSubmatch(m); f != nil {
			allocs = append(allocs, f[1])
		}
	}
	if len(allocs) != 2 || allocs[0] != g[2] || allocs[1] != g[1] {
		t.Errorf("failures reported for allocations %q, want %s and then its replacement %s", allocs, g[2], g[1])
	}
}

// A replacement that fails otherwise than the allocation it replaced is not yet the version's
// failure (the first one may have met a passing fault): the wait goes on until a replacement
// fails like the one before it.
func TestReplacementFailingOtherwiseKeepsTheWaitGoing(t *testing.T) {
	t.Parallel()
	e := newE2E(t)
	const svc = "otherwise"
	// raw_exec runs on the host: the first attempt leaves a mark and exits 3, every later
	// one exits 4.
	mark := filepath.Join(t.TempDir(), "ran")
	s := e.spec(svc, map[string]any{"command": "/bin/sh", "args": []any{"-c", `if [ -e "$0" ]; then exit 4; fi; touch "$0"; exit 3`, mark}})
	s.Units[0].Nomad.Template = slowDeadlines(`    restart {
      attempts = 0
      mode     = "fail"
    }`, `    reschedule {
      unlimited      = true
      delay          = "5s"
      delay_function = "constant"
    }`)
	ev := &events{}
	start := time.Now()
	res, err := e.layer.Apply(testCtx(t), s, e.plan(t, s), executor.Observe(ev.report, nil))
	took := time.Since(start)
	t.Logf("Apply returned after %s: %s; events %q", took.Round(time.Millisecond), res.Error, ev.messages())
	final := regexp.MustCompile(`: allocation ([0-9a-f]{8}): task main exited 4 and was not restarted; no allocation of version 0 can become healthy: it replaced allocation ([0-9a-f]{8}), which failed the same way; Nomad would keep rescheduling it every 5s: giving up$`)
	g := final.FindStringSubmatch(res.Error)
	if err == nil || g == nil {
		t.Fatalf("Apply = %+v, %v; want the third allocation's failure, like the second's", res, err)
	}
	if took > 60*time.Second {
		t.Errorf("Apply took %s", took)
	}
	failed := regexp.MustCompile(`^allocation ([0-9a-f]{8}): task main exited ([34]) and was not restarted$`)
	var seen []string
	for _, m := range ev.messages() {
		if f := failed.FindStringSubmatch(m); f != nil {
			seen = append(seen, f[1]+" exited "+f[2])
		}
	}
	want := []string{"exited 3", g[2] + " exited 4", g[1] + " exited 4"}
	if len(seen) != 3 || !strings.HasSuffix(seen[0], want[0]) || seen[1] != want[1] || seen[2] != want[2] {
		t.Errorf("failures %q, want the first allocation exiting 3, then %q", seen, want[1:])
	}
}

func anyMatch(msgs []string, re *regexp.Regexp) bool { return count(msgs, re) > 0 }

func count(msgs []string, re *regexp.Regexp) int {
	n := 0
	for _, m := range msgs {
		if re.MatchString(m) {
			n++
		}
	}
	return n
}
