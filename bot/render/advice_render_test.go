package render

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// failedRun is a run of grafana in local whose Salt layer ended as failed says.
func failedRun(failed executor.LayerResult) *store.Run {
	failed.Layer = executor.Salt
	return &store.Run{ID: "5e1f0a2b", Target: "grafana", Env: "local", State: store.RunFailed, Started: at, Finished: at.Add(3 * time.Minute),
		Layers: []executor.LayerResult{failed, {Layer: executor.Terraform, Status: executor.ResultNotStarted}, {Layer: executor.Nomad, Status: executor.ResultNotStarted}}}
}

// A layer whose end Eos did not see reads as unknown, never failed nor applied: what may have
// been applied, how to check, that nothing was rolled back and that a drift check follows.
func TestResultOfAnUnknownOutcomeSaysHowToCheck(t *testing.T) {
	lost := executor.Unknown("the 3 states of job 20261125231502 on eos-minion", "salt-run jobs.lookup_jid 20261125231502",
		errors.New("salt-api not answering for 2m0s"))
	run := failedRun(executor.LayerResult{Status: executor.ResultUnknown, Error: lost.Message(), Check: lost.Check,
		Rollback: "nothing was rolled back: Eos did not see how it ended", Cause: &executor.Cause{Kind: executor.CauseServer, Server: "salt-api"}})
	golden(t, "result_unknown", Result(run))
	got := Result(run).Plain()
	for _, want := range []string{
		"Run 5e1f0a2b · outcome unknown · Salt ❔ outcome unknown: salt-api not answering for 2m0s; the 3 states of job 20261125231502 on eos-minion may have been applied",
		"Eos did not see how Salt ended, so nothing was rolled back. Check with salt-run jobs.lookup_jid 20261125231502; grafana is marked for a drift check.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the result lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Rolled back:") || strings.Contains(got, "Fix the request") {
		t.Errorf("an unknown outcome claims a rollback or blames the request:\n%s", got)
	}
	line := runOutcome(run)
	for _, want := range []string{"Run 5e1f0a2b ended with its outcome unknown at", "Salt ❔ outcome unknown",
		"Check how Salt ended with salt-run jobs.lookup_jid 20261125231502."} {
		if !strings.Contains(line, want) {
			t.Errorf("why lacks %q: %s", want, line)
		}
	}
}

// The closing advice follows the cause: the request, a server that did not answer (which one,
// and that asking again once it is back is safe), a full disk (where), a timeout.
func TestFailedRunAdviceFollowsTheCause(t *testing.T) {
	cases := []struct {
		name   string
		result executor.LayerResult
		want   string
	}{
		{"request", executor.LayerResult{Status: executor.ResultFailed, Error: "grafana: pkg.installed on eos-minion failed: No package grafana-x found",
			Cause: &executor.Cause{Kind: executor.CauseRequest}},
			"Fix the request and ask again; the lock on grafana/local is released."},
		{"server", executor.LayerResult{Status: executor.ResultFailed, Error: "not answering for 2m0s: dial tcp 10.0.0.5:8000: connect: connection refused",
			Cause: &executor.Cause{Kind: executor.CauseServer, Server: "salt-api", Address: "10.0.0.5:8000"}},
			"salt-api at 10.0.0.5:8000 did not answer, so this is not a fault of the request. Asking again once salt-api is back is safe"},
		{"disk with a path", executor.LayerResult{Status: executor.ResultFailed, Error: "open /srv/grafana/grafana.ini: no space left on device",
			Cause: &executor.Cause{Kind: executor.CauseDisk, Path: "/srv/grafana/grafana.ini"}},
			"A disk is full at /srv/grafana/grafana.ini: no space left on device. Free space there, then ask again"},
		{"disk without a path", executor.LayerResult{Status: executor.ResultFailed, Error: "no space left on device",
			Cause: &executor.Cause{Kind: executor.CauseDisk}},
			"A disk is full somewhere on the minions Salt configures (the error does not say where)"},
		{"timeout", executor.LayerResult{Status: executor.ResultFailed, Error: "timed out after 30m0s", Cause: &executor.Cause{Kind: executor.CauseTimeout}},
			"Salt did not finish within the layer timeout: it may still be working. Check Salt before asking again"},
		// Runs recorded before causes were: the advice reads the stored error.
		{"server, from a stored record", executor.LayerResult{Status: executor.ResultFailed, Error: "submitting: Post \"http://salt:8000/\": dial tcp: lookup salt: no such host"},
			"salt-api at salt did not answer"},
		{"disk, from a stored record", executor.LayerResult{Status: executor.ResultFailed, Error: "write /var/cache/salt/minion/x: no space left on device"},
			"A disk is full at /var/cache/salt/minion/x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Result(failedRun(c.result)).Plain()
			if !strings.Contains(got, c.want) {
				t.Errorf("advice lacks %q:\n%s", c.want, got)
			}
			if c.name != "request" && strings.Contains(got, "Fix the request") {
				t.Errorf("a %s failure is blamed on the request:\n%s", c.name, got)
			}
		})
	}
}

// A long rollback error is cut in the post with where to read it whole; `why` has it whole.
func TestLongRollbackErrorIsCutInThePostAndWholeInWhy(t *testing.T) {
	whole := "rollback failed: terraform show for local/authentik: Failed to read the given file as a state or plan file: State read error: Error reading eos-rollback.tfplan as a statefile: 2 problems: " +
		strings.Repeat("- Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 1. ", 6)
	run := failedRun(executor.LayerResult{Status: executor.ResultFailed, Error: "x", Rollback: whole})
	post := Result(run).Plain()
	if !strings.Contains(post, "Rolled back: rollback failed: terraform show for local/authentik: Failed to read") || !strings.Contains(post, "… (whole: @eos why 5e1f0a2b)") {
		t.Errorf("the post does not cut the rollback error with a pointer to why:\n%s", post)
	}
	if why := runOutcome(run); !strings.Contains(why, strings.TrimSpace(whole)) {
		t.Errorf("why does not give the rollback error whole:\n%s", why)
	}
	short := failedRun(executor.LayerResult{Status: executor.ResultFailed, Error: "x", Rollback: "nothing created by Terraform remains"})
	if post := Result(short).Plain(); !strings.Contains(post, "Rolled back: nothing created by Terraform remains\n") {
		t.Errorf("a short rollback sentence is not kept whole:\n%s", post)
	}
}
