package bot

import (
	"context"
	"log/slog"
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/intents"
)

// policyEnvs are the environments whose policy `policy` shows: the declared ones.
func (e *Engine) policyEnvs() []string { return e.knownEnvs() }

// leftOutNote says what happens to requests for environments not declared.
func (e *Engine) leftOutNote() string {
	return "Requests for other environments are refused, except in one that still holds services: there destroy, status, drift and history work, under the rule for environments without their own (" +
		render.DescribeEnv(e.policy().Default.WithDefaults()) + ")."
}

// answerPolicy answers `policy [ENV]` and `help policy`: the rule that governs each environment,
// exactly as the engine applies it.
func (e *Engine) answerPolicy(ctx context.Context, c conv, in *intents.Intent) answer {
	envs := e.policyEnvs()
	if in.Env != "" {
		envs = []string{in.Env}
	}
	doc := render.PolicyAnswer(e.policy(), envs, e.leftOutNote())
	if set := e.codeSet(); set != nil {
		doc.Blocks = append(doc.Blocks, adapters.Context{Text: render.PolicyCodeInForce(set.SHA256(), set.Rules())})
	}
	if vacant := e.vacantHandles(ctx, c.adapter.Name()); len(vacant) > 0 {
		doc.Blocks = append(doc.Blocks, adapters.Context{Text: render.VacantHandles(c.adapter.Name(), vacant)})
	}
	return said(doc)
}

// vacantHandles are the handles the policy and the policy set name that are pinned vacant on
// platform (handles.go): they name nobody there until an operator says who.
func (e *Engine) vacantHandles(ctx context.Context, platform string) []string {
	var out []string
	for _, h := range e.namedHandles() {
		en := policy.ParseEntry(h)
		if en.Group || en.Prefix != "" || en.Platform != "" && en.Platform != platform || slices.Contains(out, en.Name) {
			continue
		}
		if pin, err := e.st.HandlePin(ctx, platform, en.Name); err == nil && pin.Vacant() {
			out = append(out, en.Name)
		}
	}
	slices.Sort(out)
	return out
}

// LogPolicy writes the effective policy of every environment it knows to log, one line each,
// so an operator sees at start-up exactly what governs approvals.
func (e *Engine) LogPolicy(log *slog.Logger) {
	for _, env := range e.policyEnvs() {
		for _, r := range render.PolicyRows(e.policy(), env) {
			log.Info("approval policy", "env", r[0], "verb", r[1], "rule", r[2])
		}
	}
	log.Info("approval policy: "+e.leftOutNote(), "environments", e.knownEnvs())
}
