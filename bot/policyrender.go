package bot

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

// codeBlocks are what the policy as code says on a preview, after what would fail: ⛔ and each
// deny (the plan cannot be approved), then ⚠️ and each warning (it changes nothing). A
// require shows in the rule line, as one more rule (rulesNeed).
func codeBlocks(v codeVerdict) []adapters.Block {
	var out []adapters.Block
	if denies := denyLines(v); len(denies) == 1 {
		out = append(out, adapters.Text{Text: "⛔ The policy denies this plan: " + strings.TrimPrefix(denies[0], "⛔ ")})
	} else if len(denies) > 1 {
		out = append(out, adapters.Text{Text: "⛔ The policy denies this plan:"}, adapters.List{Items: denies})
	}
	for _, d := range v.of(rego.Warn) {
		out = append(out, adapters.Text{Text: "⚠️ Policy warning: " + d.String()})
	}
	return out
}

// deniedNote closes the preview of a plan the policy denies, instead of the reaction prompt.
func deniedNote(p *store.Plan) string {
	return fmt.Sprintf("No approval possible: nothing will run. Change the request so the policy allows it (or ask the policy's owners), then ask again: @eos %s · details: @eos why %s",
		typedRequest(p.Text), p.ID)
}

// codeWhy are `why`'s lines on the policy as code: which set judged the plan and each decision
// with its rule, file and line.
func codeWhy(v codeVerdict) []string {
	if v.sha == "" {
		return nil
	}
	set := "Policy set sha256:" + v.sha[:min(12, len(v.sha))]
	if len(v.decisions) == 0 {
		return []string{set + " decided nothing about this plan."}
	}
	lines := []string{set + " decided:"}
	for _, d := range v.decisions {
		lines = append(lines, "· "+d.Kind+": "+d.String()+requireWho(d))
	}
	return lines
}

// codeRecorded are `why`'s lines on a plan that ended: the decisions the audit log recorded
// when it was judged, with the set that made them.
func (e *Engine) codeRecorded(id string) []string {
	entries, err := e.st.Audit(func(en *store.Entry) bool { return en.PlanID == id && en.Kind == "policy" })
	if err != nil || len(entries) == 0 {
		return nil
	}
	lines := []string{"The policy decided, when it judged this plan:"}
	for _, en := range entries {
		lines = append(lines, "· "+en.At.UTC().Format("15:04 UTC")+" "+en.Text)
	}
	return lines
}
