package render

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

// Code is what the policy as code decided about a plan, as the texts say it: the SHA-256 of
// the set in force (empty: no set, nothing decided) and its decisions.
type Code struct {
	SHA       string
	Decisions []rego.Decision
}

// Of are the decisions of one kind.
func (v Code) Of(kind string) []rego.Decision {
	var out []rego.Decision
	for _, d := range v.Decisions {
		if d.Kind == kind {
			out = append(out, d)
		}
	}
	return out
}

// Denied reports whether the set denies the plan: no reaction can run it.
func (v Code) Denied() bool { return len(v.Of(rego.Deny)) > 0 }

// Judgement is a plan's rules under the policy in force now, its approvals weighed by them,
// and what the policy as code decided (its requires are among Rules already).
type Judgement struct {
	Rules   []policy.Rule
	Verdict policy.Verdict
	Code    Code
}

// Need states the rules, for the preview's rule line and `why`.
func (j Judgement) Need(requester string) string { return RulesNeed(j.Rules, requester) }

// codeBlocks are what the policy as code says on a preview, after what would fail: ⛔ and each
// deny (the plan cannot be approved), then ⚠️ and each warning (it changes nothing). A
// require shows in the rule line, as one more rule (RulesNeed).
func codeBlocks(v Code) []adapters.Block {
	var out []adapters.Block
	if denies := DenyLines(v); len(denies) == 1 {
		out = append(out, adapters.Text{Text: "⛔ The policy denies this plan: " + strings.TrimPrefix(denies[0], "⛔ ")})
	} else if len(denies) > 1 {
		out = append(out, adapters.Text{Text: "⛔ The policy denies this plan:"}, adapters.List{Items: denies})
	}
	for _, d := range v.Of(rego.Warn) {
		out = append(out, adapters.Text{Text: "⚠️ Policy warning: " + d.String()})
	}
	return out
}

// deniedNote closes the preview of a plan the policy denies, instead of the reaction prompt.
func deniedNote(p *store.Plan) string {
	return fmt.Sprintf("No approval possible: nothing will run. Change the request so the policy allows it (or ask the policy's owners), then ask again: @eos %s · details: @eos why %s",
		TypedRequest(p.Text), p.ID)
}

// ShortSHA is the first 12 hex digits of a policy set's SHA-256, as Eos names a set in chat
// and in `eos config check` (the audit log keeps it whole).
func ShortSHA(sha string) string { return sha[:min(12, len(sha))] }

// codeWhy are `why`'s lines on the policy as code: which set judged the plan and each decision
// with its rule, file and line.
func codeWhy(v Code) []string {
	if v.SHA == "" {
		return nil
	}
	set := "Policy set sha256:" + ShortSHA(v.SHA)
	if len(v.Decisions) == 0 {
		return []string{set + " decided nothing about this plan."}
	}
	lines := []string{set + " decided:"}
	for _, d := range v.Decisions {
		lines = append(lines, "· "+d.Kind+": "+d.String()+RequireWho(d))
	}
	return lines
}

// DenyLines are v's denies as the preview and the replies list them: "⛔ msg (rule, file:line)".
func DenyLines(v Code) []string {
	var out []string
	for _, d := range v.Of(rego.Deny) {
		out = append(out, "⛔ "+d.String())
	}
	return out
}

// RequireWho says who a require decision asks: " · needs 1 from group:sre".
func RequireWho(d rego.Decision) string {
	if d.Kind != rego.Require {
		return ""
	}
	return fmt.Sprintf(" · needs %d from %s", d.Approvals, strings.Join(d.Approvers, ", "))
}
