package render

import (
	"github.com/eosbot/eos/bot/policy"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/store"
)

// approvalStates are a preview as posted and as it is edited at each change of its approval
// status, under a rule of two approvals from @bob, @dave or group:sre.
func approvalStates() []namedDoc {
	ep := policy.EnvPolicy{Approvers: []string{"bob", "dave", "group:sre"}, Approvals: 2}
	vote := func(user string) store.Vote { return store.Vote{User: user, UserID: "u-" + user, At: at} }
	ran := func(state store.RunState, rolledBack bool) func(p *store.Plan) {
		return func(p *store.Plan) {
			p.State, p.Approvals = store.PlanApproved, []store.Vote{vote("bob"), vote("dave")}
			p.Outcome = &store.Outcome{State: state, RolledBack: rolledBack}
		}
	}
	var out []namedDoc
	for _, s := range []struct {
		name   string
		change func(p *store.Plan)
	}{
		{"posted", func(*store.Plan) {}},
		{"one_of_two", func(p *store.Plan) { p.Approvals = []store.Vote{vote("bob")} }},
		{"approved", func(p *store.Plan) {
			p.State, p.Approvals = store.PlanApproved, []store.Vote{vote("bob"), vote("dave")}
		}},
		{"run_done", ran(store.RunDone, false)},
		{"run_failed_rolled_back", ran(store.RunFailed, true)},
		{"run_failed", ran(store.RunFailed, false)},
		{"run_stopped", ran(store.RunStopped, false)},
		{"run_interrupted", ran(store.RunInterrupted, false)},
		{"rejected", func(p *store.Plan) { p.State, p.Rejection = store.PlanRejected, &store.Vote{User: "dave"} }},
		{"expired", func(p *store.Plan) { p.State = store.PlanExpired }},
		{"cancelled_by_requester", func(p *store.Plan) {
			p.State, p.Cancellation = store.PlanCancelled, &store.Cancellation{By: &store.Vote{User: "alice"}, At: at}
		}},
		{"cancelled_request_deleted", func(p *store.Plan) {
			p.State, p.Cancellation = store.PlanCancelled, &store.Cancellation{Reason: "the request was deleted", At: at}
		}},
	} {
		p := samplePlan()
		p.Needed = 2
		s.change(p)
		doc := Preview(p, judgedByRule(p, ep), "")
		if s.name != "posted" {
			doc.Attachment = nil // as showStatus edits it
		}
		out = append(out, namedDoc{s.name, doc})
	}
	return out
}

// The preview's rule and every state of its status line, as each platform shows them.
func TestApprovalStatusGolden(t *testing.T) {
	goldenPerPlatform(t, "approval_status", approvalStates())
}

// Each state's status line says what it must, and the rule line never changes.
func TestApprovalStatusLines(t *testing.T) {
	want := map[string]string{
		"posted":                    "React ✅ to approve, ❌ to reject · details: @eos plan 7f3a9c21 full",
		"one_of_two":                "1 of 2: @bob ✅ · waiting for one more · React ✅ to approve",
		"approved":                  "approved by @bob ✅ @dave ✅: running as run 7f3a9c21",
		"run_done":                  "approved by @bob ✅ @dave ✅ · run 7f3a9c21 done",
		"run_failed_rolled_back":    "approved by @bob ✅ @dave ✅ · run 7f3a9c21 failed (rolled back)",
		"run_failed":                "approved by @bob ✅ @dave ✅ · run 7f3a9c21 failed",
		"run_stopped":               "approved by @bob ✅ @dave ✅ · run 7f3a9c21 stopped",
		"run_interrupted":           "approved by @bob ✅ @dave ✅ · run 7f3a9c21 interrupted",
		"rejected":                  "rejected by @dave ❌ · nothing changed",
		"expired":                   "expired at 14:32 UTC without the approvals it needs · nothing changed",
		"cancelled_by_requester":    "cancelled by @alice · nothing changed",
		"cancelled_request_deleted": "cancelled: the request was deleted · nothing changed",
	}
	rule := "Needs 2 approvals from @bob, @dave or group:sre — not @alice (asked) · expires 14:32 UTC"
	for _, s := range approvalStates() {
		lines := strings.Split(s.doc.Plain(), "\n")
		if want[s.name] == "" {
			t.Fatalf("%s: no status line expected", s.name)
		}
		if len(lines) < 2 || lines[len(lines)-2] != rule || !strings.HasPrefix(lines[len(lines)-1], want[s.name]) {
			t.Errorf("%s: the preview ends\n%s\nwant the rule %q and a status starting %q", s.name, strings.Join(lines[max(0, len(lines)-2):], "\n"), rule, want[s.name])
		} else if strings.HasPrefix(s.name, "run_") && lines[len(lines)-1] != want[s.name] {
			t.Errorf("%s: the status line is %q, want exactly %q", s.name, lines[len(lines)-1], want[s.name])
		}
	}
}
