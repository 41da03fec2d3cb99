package enginetest_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/executor"
)

// scriptedSalt is a Salt layer that applies three states, or loses its server mid-apply
// (lose), and whose drift check fails while down is set, as salt-api's does while it is gone.
type scriptedSalt struct {
	lose bool
	down atomic.Bool
}

func (l *scriptedSalt) Name() executor.LayerName { return executor.Salt }
func (l *scriptedSalt) Plan(_ context.Context, spec executor.Spec) (executor.LayerPlan, error) {
	return executor.LayerPlan{Status: executor.PlanChanges, Summary: "eos-minion: 3 states to apply", Digest: "salt " + spec.Target,
		Changes: []executor.Change{{Unit: spec.Target, Action: executor.Update, Address: "eos-minion: pkg.installed grafana"}}}, nil
}
func (l *scriptedSalt) Apply(_ context.Context, _ executor.Spec, _ executor.LayerPlan, obs executor.Observer) (executor.LayerResult, error) {
	executor.Heard(obs).Event(executor.Event{Layer: executor.Salt, Resource: "eos-minion: pkg.installed grafana", Done: 1, Total: 3})
	if l.lose {
		return executor.LayerResult{}, executor.Unknown("the 3 states of job 20261125231502 on eos-minion", "salt-run jobs.lookup_jid 20261125231502",
			errors.New("salt-api not answering for 2m0s"))
	}
	return executor.LayerResult{Summary: "3 states applied"}, nil
}
func (l *scriptedSalt) Drift(context.Context, executor.Spec) (executor.LayerDrift, error) {
	if l.down.Load() {
		return executor.LayerDrift{}, errors.New("salt-api not answering: dial tcp 127.0.0.1:8000: connect: connection refused")
	}
	return executor.LayerDrift{Status: executor.DriftClean}, nil
}
func (l *scriptedSalt) Rollback(context.Context, executor.Spec, *executor.Spec, executor.Observer) (string, error) {
	return "nothing to undo", nil
}

// After a failed run, `status SERVICE` says what is left in each layer instead of "not
// deployed yet": the Salt states applied before the failure (kept by the failed-layer policy)
// and how Terraform's rollback went; under the none policy, that Terraform's objects stay.
func TestStatusAfterAFailedRunSaysWhatIsLeft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		policy executor.RollbackPolicy
		want   []string
	}{
		{executor.RollbackFailed, []string{
			"Salt: applied and kept (3 states applied): a failed run undoes only the layer that failed (policy: failed-layer)",
			"Terraform: failed and rolled back: nothing created by Terraform remains"}},
		{executor.RollbackNone, []string{
			"Salt: applied and kept (3 states applied): nothing is rolled back (policy: none)",
			"Terraform: failed, not rolled back (policy: none): what it applied before failing stays"}},
	} {
		t.Run(string(c.policy), func(t *testing.T) {
			t.Parallel()
			h := eostest.New(t, eostest.Options{Layers: []executor.Layer{&scriptedSalt{}}, FailOn: []string{"proxy-grafana-local"}, Rollback: c.policy})
			p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
			h.React("bob", p.ID, "+1")
			h.WaitText(p.ID, "Run "+id+" · failed")
			after := h.Last()
			h.Say("alice", "@eos status grafana")
			got := h.WaitText(after, "What run "+id+" (create grafana, failed at").Text
			want := append([]string{"grafana has no declared state yet: its last run did not finish."}, c.want...)
			for _, w := range want {
				if !strings.Contains(got, w) {
					t.Errorf("status lacks %q:\n%s", w, got)
				}
			}
			if strings.Contains(got, "is not deployed yet") {
				t.Errorf("status after a failed run says only 'not deployed':\n%s", got)
			}
		})
	}
}

// A run whose end in Salt Eos did not see says so (❔, how to check, nothing rolled back),
// marks the service for a drift check that `status` reports pending, and once salt-api
// answers again Eos checks Salt against the run's plan, says what it found in the run's thread
// and status shows the check instead.
func TestUnknownOutcomeIsCheckedOnceTheServerAnswers(t *testing.T) {
	t.Parallel()
	salt := &scriptedSalt{lose: true}
	salt.down.Store(true)
	h := eostest.New(t, eostest.Options{Layers: []executor.Layer{salt}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	res := h.WaitText(p.ID, "Run "+id+" · outcome unknown")
	waitPreview(t, h, p, "approved by @bob ✅ · run "+id+" outcome unknown (nothing rolled back)")
	for _, want := range []string{"Salt ❔ outcome unknown: salt-api not answering for 2m0s; the 3 states of job 20261125231502 on eos-minion may have been applied",
		"Eos did not see how Salt ended, so nothing was rolled back. Check with salt-run jobs.lookup_jid 20261125231502; grafana is marked for a drift check."} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("the run's post lacks %q:\n%s", want, res.Text)
		}
	}
	h.Idle()
	after := h.Last()
	h.Say("alice", "@eos status grafana")
	got := h.WaitText(after, "What run "+id).Text
	if want := "outcome of run " + id + " unknown in Salt: drift check pending · check by hand with salt-run jobs.lookup_jid 20261125231502"; !strings.Contains(got, want) {
		t.Errorf("status lacks %q:\n%s", want, got)
	}

	after = h.Last()
	h.Say("alice", "@eos history grafana")
	if got := h.WaitText(after, "History of grafana").Text; !strings.Contains(got, "| outcome unknown |") {
		t.Errorf("history does not say the outcome is unknown:\n%s", got)
	}

	salt.down.Store(false)
	h.WaitText(p.ID, "Salt answers again, and what run "+id+" gave it is in place: its apply did finish.")
	after = h.Last()
	h.Say("alice", "@eos status grafana")
	got = h.WaitText(after, "What run "+id).Text
	if !strings.Contains(got, "outcome of run "+id+" unknown in Salt: checked at") || strings.Contains(got, "pending") {
		t.Errorf("status after the check still says pending, or not what the check found:\n%s", got)
	}
}

// The check of an unknown outcome survives a restart: an Eos stopped between the unknown
// outcome and the server answering again leaves it pending in the store, and the next one
// resumes it, says what it found in the run's channel (the console's thread is gone with the
// earlier session), records it so status stops saying pending, and forgets the pending check.
func TestAnUnknownOutcomeIsStillCheckedAfterARestart(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	salt := &scriptedSalt{lose: true}
	salt.down.Store(true)
	h := eostest.New(t, eostest.Options{DataDir: data, Layers: []executor.Layer{salt}})
	p, id := eostest.Preview(t, h, "alice", "@eos create grafana")
	h.React("bob", p.ID, "+1")
	h.WaitText(p.ID, "Run "+id+" · outcome unknown")
	h.Idle()
	h.Stop()

	h2 := eostest.New(t, eostest.Options{DataDir: data, Layers: []executor.Layer{salt}})
	if pending, err := h2.Store.OutcomeChecks(context.Background()); err != nil || len(pending) != 1 || pending[0].RunID != id || pending[0].Layer != executor.Salt {
		t.Fatalf("pending checks after the restart = %+v, %v; want run %s's Salt", pending, err, id)
	}
	salt.down.Store(false) // salt-api is back
	h2.WaitText(0, "Salt answers again, and what run "+id+" gave it is in place: its apply did finish.")
	after := h2.Last()
	h2.Say("alice", "@eos status grafana")
	got := h2.WaitText(after, "What run "+id).Text
	if !strings.Contains(got, "outcome of run "+id+" unknown in Salt: checked at") || strings.Contains(got, "pending") {
		t.Errorf("status after the resumed check still says pending, or not what the check found:\n%s", got)
	}
	if pending, err := h2.Store.OutcomeChecks(context.Background()); err != nil || len(pending) != 0 {
		t.Errorf("pending checks after the check = %+v, %v; want none", pending, err)
	}
}
