package bot

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
)

// policyInputRetention is how long each plan's policy input document is kept for
// `eos policy replay` (prune forgets older ones).
const policyInputRetention = 30 * 24 * time.Hour

// keptInput is the record `eos policy replay` keeps of plan p: the input document it was
// judged on, with the SHA-256 of the policy set in force and its decisions (sha "" and no
// decisions: no policy in force). The document is the one the rules see: secret values are
// never in it. Nil (logged) when the document cannot be encoded: keeping it is never in the
// way of the plan. CreatePlanKeeping stores it with the plan, in one commit.
func (e *Engine) keptInput(p *store.Plan, input map[string]any, sha string, decisions []rego.Decision) *store.PolicyInput {
	raw, err := json.Marshal(input)
	if err != nil {
		e.log.Error("encoding a plan's policy input for replay", "plan", p.ID, "err", err)
		return nil
	}
	kept := &store.PolicyInput{PlanID: p.ID, At: p.Created, Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env,
		Input: raw, PolicySHA: sha}
	if kept.At.IsZero() {
		kept.At = e.now()
	}
	for _, d := range decisions {
		kept.Decisions = append(kept.Decisions, store.PolicyDecision{Kind: d.Kind, Msg: d.Msg, Rule: d.Rule})
	}
	return kept
}

// planInput is the input document of plan p when no policy set is in force: the one inputOf
// builds, with the groups of the plan's approval policy the platform confirms for the
// requester (only groups: a handle would cost the platform a look-up for nothing), in UTC.
func (e *Engine) planInput(ctx context.Context, p *store.Plan) map[string]any {
	ep := e.policy().For(p.Plan.Spec.Env, p.Plan.Spec.Verb)
	var groups []string
	for _, entry := range append(slices.Clone(ep.Requesters), ep.Approvers...) {
		if policy.ParseEntry(entry).Group {
			groups = append(groups, entry)
		}
	}
	return e.inputOf(ctx, p, groups, time.UTC)
}

// prunePolicyInputs forgets the input documents older than the replay window.
func (e *Engine) prunePolicyInputs(ctx context.Context, now time.Time) {
	if n, err := e.st.PrunePolicyInputs(ctx, now.Add(-policyInputRetention)); err != nil {
		e.logFailure(ctx, "pruning policy inputs", err)
	} else if n > 0 {
		e.log.Info("forgot the policy inputs of old plans", "plans", n)
	}
}
