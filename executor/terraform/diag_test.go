package terraform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestTextDiagnostics(t *testing.T) {
	tests := []struct {
		name, text string
		want       []diagnostic
	}{
		{name: "boxed with snippet",
			text: "exit status 1\n\n\x1b[31m╷\x1b[0m\n│ Error: Unsupported argument\n│ \n│   on main.tf line 3, in resource \"terraform_data\" \"a\":\n│    3:   bogus = 1\n│ \n│ An argument named \"bogus\" is not\n│ expected here.\n╵\n",
			want: []diagnostic{{Summary: "Unsupported argument", Detail: `An argument named "bogus" is not expected here.`}}},
		{name: "plain, two errors, warning skipped",
			text: "Warning: Deprecated\n\nold stuff\n\nError: Saved plan is stale\n\nThe given plan file can no longer be applied because the state was changed by\nanother operation after the plan was created.\n\nError: Second\n",
			want: []diagnostic{
				{Summary: "Saved plan is stale", Detail: "The given plan file can no longer be applied because the state was changed by another operation after the plan was created."},
				{Summary: "Second"},
			}},
		{name: "wrapped summary, init preamble dropped",
			text: "Initializing the backend...\n\nError: Terraform encountered problems during initialisation, including problems\nwith the configuration, described below.\n\nThe Terraform configuration must be valid.\n\n\nError: Unclosed configuration block with a summary long enough to\nwrap\n\n  on main.tf line 1:\n   1: resource \"x\" \"y\" {\n\nThere is no closing brace.\n",
			want: []diagnostic{{Summary: "Unclosed configuration block with a summary long enough to wrap", Detail: "There is no closing brace."}}},
		{name: "no diagnostics", text: "exit status 1\nsomething odd", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := textDiagnostics(tt.text)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestFailureMessages(t *testing.T) {
	diagLine := func(summary, detail, addr string) string {
		b, err := json.Marshal(map[string]any{"@level": "error", "type": "diagnostic",
			"diagnostic": map[string]string{"severity": "error", "summary": summary, "detail": detail, "address": addr}})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	redact := redactor([]string{"hunter2", "ab"})
	tests := []struct {
		name   string
		ctx    context.Context
		stdout string
		err    error
		want   string
		cause  error
	}{
		{name: "json diagnostics with address, redacted",
			stdout: `{"type":"version"}` + "\n" + diagLine("Invalid value", "password hunter2 is too short \x1b[1mab\x1b[0m", "terraform_data.x") +
				`{"@level":"warn","type":"diagnostic","diagnostic":{"severity":"warning","summary":"ignored"}}` + "\n",
			err:  errors.New("exit status 1\n"),
			want: "terraform plan for prod/web: terraform_data.x: Invalid value: password (redacted) is too short ab"},
		{name: "only the first paragraph of a detail",
			stdout: diagLine("Invalid value for variable", "v must be ok\n\nThis was checked by the validation rule at main.tf:3,3-13.", ""),
			err:    errors.New("exit status 1"),
			want:   "terraform plan for prod/web: Invalid value for variable: v must be ok"},
		{name: "stale plan", stdout: diagLine("Saved plan is stale", "state changed", ""), err: errors.New("exit status 1"),
			want: "terraform plan for prod/web: the saved plan is stale (the state changed after it was made); plan again", cause: ErrStalePlan},
		{name: "lock not released", stdout: diagLine("Error releasing the state lock", "Error message: consul: session invalidated", ""), err: errors.New("exit status 1"),
			want:  "terraform plan for prod/web: the state lock could not be released afterwards (Error releasing the state lock: Error message: consul: session invalidated); a later run may find it held",
			cause: errLockRelease},
		{name: "stderr fallback", err: errors.New("exit status 1\n╷\n│ Error: Failed to load plugin schemas\n│ \n│ Error while loading schemas for plugin components.\n╵\n"),
			want: "terraform plan for prod/web: Failed to load plugin schemas: Error while loading schemas for plugin components."},
		{name: "nothing to parse", err: errors.New("fork/exec /bin/terraform: hunter2 no such file\nmore"),
			want: "terraform plan for prod/web: fork/exec /bin/terraform: (redacted) no such file"},
		{name: "more than two errors",
			stdout: diagLine("one", "", "") + diagLine("two", "", "") + diagLine("two", "", "") + diagLine("three", "", "") + diagLine("four", "", ""),
			err:    errors.New("exit status 1"),
			want:   "terraform plan for prod/web: one; two; and 2 more errors"},
		{name: "timeout", err: fmt.Errorf("wrapped: %w", context.DeadlineExceeded),
			want: "terraform plan for prod/web: timed out after 1m0s", cause: context.DeadlineExceeded},
		{name: "cancelled", ctx: cancelled, err: errors.New("signal: interrupt"),
			want: "terraform plan for prod/web: cancelled", cause: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			err := failure(ctx, "plan", "prod/web", []byte(tt.stdout), tt.err, time.Minute, redact)
			if err.Error() != tt.want {
				t.Errorf("got  %q\nwant %q", err, tt.want)
			}
			if tt.cause != nil && !errors.Is(err, tt.cause) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.cause)
			}
		})
	}
}

// A detail that announces a list keeps the list: the reason a corrupted state is unreadable.
func TestDiagnosticKeepsAnAnnouncedList(t *testing.T) {
	line := `{"@level":"error","diagnostic":{"severity":"error","summary":"Error acquiring the state lock","detail":"Error message: 2 problems:\n\n- Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 2.\n\nTerraform acquires a state lock to protect the state from being written\nby multiple users at the same time."},"type":"diagnostic"}`
	got := jsonDiagnostics([]byte(line))
	want := "Error acquiring the state lock: Error message: 2 problems: - Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 2."
	if len(got) != 1 || got[0].String() != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// An error Terraform repeats (per instance, with and without the resource's address, or once
// from validation and once from the plan) is said once, named by the first address given.
func TestRepeatedDiagnosticIsSaidOnce(t *testing.T) {
	shrink := diagnostic{Summary: "Volumes cannot shrink", Detail: "size_gb would go from 300 to 200; a volume can only grow."}
	addressed := shrink
	addressed.Address = "eoslab_volume.data"
	got := joinDiagnostics([]diagnostic{addressed, shrink, addressed, shrink})
	if want := "eoslab_volume.data: Volumes cannot shrink: size_gb would go from 300 to 200; a volume can only grow."; got != want {
		t.Errorf("joined = %q, want %q", got, want)
	}
}

// A failure is said once: two resources refused for the same reason share the reason's
// detail, and a detail's sentence that only repeats the summary ("Cannot create: already
// exists") is left out.
// Before: `eoslab_firewall.main: eoslab firewall "proxy-grafana" already exists: Cannot
// create: already exists. Remove the file or import the object.; eoslab_server.main: eoslab
// server "proxy-grafana" already exists: Cannot create: already exists. Remove the file or
// import the object.`
func TestJoinDiagnosticsSaysAFailureOnce(t *testing.T) {
	detail := "Cannot create: already exists. Remove the file or import the object."
	got := joinDiagnostics([]diagnostic{
		{Address: "eoslab_firewall.main", Summary: `eoslab firewall "proxy-grafana" already exists`, Detail: detail},
		{Address: "eoslab_server.main", Summary: `eoslab server "proxy-grafana" already exists`, Detail: detail},
	})
	want := `eoslab_firewall.main: eoslab firewall "proxy-grafana" already exists; eoslab_server.main: eoslab server "proxy-grafana" already exists: Remove the file or import the object.`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Different details stay with their own error.
	got = joinDiagnostics([]diagnostic{{Summary: "A", Detail: "one."}, {Summary: "B", Detail: "two."}})
	if want := "A: one.; B: two."; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// showUnreadable is what `terraform show -json` prints (stderr, through terraform-exec's
// error) for a rollback plan file it cannot read: the "2 problems:" with the problems
// on the lines after it.
const showUnreadable = "exit status 1\n\nError: Failed to read the given file as a state or plan file\n\n" +
	"State read error: Error reading eos-rollback.tfplan as a statefile: 2\nproblems:\n\n" +
	"- Unsupported state file format: The state file could not be parsed as JSON:\nsyntax error at byte offset 1.\n" +
	"- Unsupported state file format: The state file does not have a \"version\"\nattribute, which is required to identify the format version.\n\n" +
	"Plan read error: couldn't load the provided path as either a local plan file\n(zip: not a valid zip file) or a saved cloud plan (invalid character 'g'\nlooking for beginning of value)\n"

// The rollback's own error is shown whole: a detail that announces problems keeps them (it
// used to end at "2 problems:"), and the log gets every paragraph.
func TestUnreadableRollbackPlanErrorKeepsItsProblems(t *testing.T) {
	err := failure(context.Background(), "show", "local/authentik", nil, errors.New(showUnreadable), time.Minute, func(s string) string { return s })
	want := "terraform show for local/authentik: Failed to read the given file as a state or plan file: State read error: Error reading eos-rollback.tfplan as a statefile: 2 problems: " +
		"- Unsupported state file format: The state file could not be parsed as JSON: syntax error at byte offset 1. " +
		"- Unsupported state file format: The state file does not have a \"version\" attribute, which is required to identify the format version."
	if err.Error() != want {
		t.Errorf("error:\n got %q\nwant %q", err, want)
	}
	whole := wholeDiagnostics(nil, showUnreadable)
	for _, part := range []string{"2\nproblems:", "does not have a \"version\"", "Plan read error: couldn't load the provided path"} {
		if !strings.Contains(whole, part) {
			t.Errorf("the logged diagnostics lack %q:\n%s", part, whole)
		}
	}
}
