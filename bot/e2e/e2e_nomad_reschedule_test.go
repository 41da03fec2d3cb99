package e2e_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor/nomad"
)

// A job that is as declared but whose allocation failed after its deployment succeeded is
// drift; a reconcile plans rescheduling it, and its run has Nomad place the allocation again
// under the same job version, after which the service matches its declaration. Before, the
// reconcile answered that it would change nothing that fixes it.
func TestNomadFailedAllocationIsRescheduledByAReconcile(t *testing.T) {
	t.Parallel()
	b := newNomadBot(t)
	in := " in " + b.env
	job := nomad.JobID("flaky", b.env)
	t.Cleanup(func() { _, _, _ = b.api.Jobs().Deregister(job, true, nil) })
	ready := filepath.Join("/tmp", "eos-e2e-ready-"+b.env) // the job's own test (testdata/blueprints/flaky)
	t.Cleanup(func() { os.Remove(ready) })

	b.run(t, "@eos create flaky"+in, "done in")
	first := waitAllocation(t, b.api, job, func(a *api.AllocationListStub) bool { return a.ClientStatus == "failed" })
	created, _, err := b.api.Jobs().Info(job, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.say("@eos drift flaky"+in, "1 of 1 services drifted", "1 allocation failed (task main: Exit Code: 2)")
	// Taking in the job as it runs would leave the failure as it is: no plan, and the answer
	// points at the reconcile.
	b.say("@eos adopt flaky"+in, "flaky in "+b.env+" still differs from its declared state", "but an adopt would change nothing that fixes it, so nothing is planned", "@eos reconcile flaky"+in)

	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p, id := eostest.Preview(t, b.Harness, "alice", "@eos reconcile flaky"+in)
	if want := "Nomad     | job " + job + ": reschedule group app: 1 allocation failed (task main: Exit Code: 2)"; !strings.Contains(p.Text, want) {
		t.Errorf("reconcile preview lacks %q:\n%s", want, p.Text)
	}
	b.React("bob", p.ID, "+1")
	done := b.WaitText(p.ID, "Run "+id+" · done in")
	if !strings.Contains(done.Text, "Nomad ✅ "+job+" 1/1 healthy") {
		t.Errorf("reconcile run:\n%s", done.Text)
	}
	now, _, err := b.api.Jobs().Info(job, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *now.Version != *created.Version {
		t.Errorf("the reconcile changed the job to version %d, want %d as it was", *now.Version, *created.Version)
	}
	waitAllocation(t, b.api, job, func(a *api.AllocationListStub) bool { return a.ID != first.ID && a.ClientStatus == "running" })
	b.say("@eos drift flaky"+in, "flaky in "+b.env+" matches its declared state")
}

// waitAllocation waits, with blocking queries, until an allocation of job satisfies ok.
func waitAllocation(t *testing.T, c *api.Client, job string, ok func(*api.AllocationListStub) bool) *api.AllocationListStub {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), eostest.Timeout)
	defer cancel()
	var index uint64
	for {
		stubs, qm, err := c.Jobs().Allocations(job, false, (&api.QueryOptions{WaitIndex: index, WaitTime: 5 * time.Second}).WithContext(ctx))
		if err != nil {
			t.Fatalf("waiting for an allocation of %s: %v", job, err)
		}
		for _, a := range stubs {
			if ok(a) {
				return a
			}
		}
		index = qm.LastIndex
	}
}
