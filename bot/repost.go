package bot

import (
	"context"
	"fmt"
	"github.com/eosbot/eos/bot/render"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// repostPreviews posts again the preview of every pending plan whose preview post was never
// recorded: the process that made it posted it and died before writing down where (a kill, a
// failover). A reaction on a post the store does not know approves nothing, so without this
// such a plan would wait, unapprovable, until it expired, while people's ✅ on the first
// preview were silently ignored.
func (e *Engine) repostPreviews(ctx context.Context) {
	now := e.now()
	lost, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool {
		return p.State == store.PlanPending && p.Preview.ID == "" && now.Before(p.Expires)
	})
	if err != nil {
		e.log.Error("reading pending plans without a recorded preview", "err", err)
		return
	}
	for _, p := range lost {
		a, ok := e.adapter(p.Request.Platform)
		if !ok {
			continue
		}
		doc := e.planLinked(previewDoc(p, e.judge(ctx, a, p), render.VaultRow(p.Plan, e.cfg.Runner.SecretsConfigured())), p.ID)
		doc.Blocks = append([]adapters.Block{adapters.Context{Text: fmt.Sprintf(
			"Posted again: Eos stopped before it recorded plan %s's first preview, so reactions there do not count. React here.", p.ID)}}, doc.Blocks...)
		ref := e.sayAnywhere(ctx, a, p.Request, doc)
		if ref.ID == "" {
			continue
		}
		shown := e.entry(store.Entry{Kind: "preview", Platform: a.Name(), PlanID: p.ID, Hash: p.Plan.Hash, Service: p.Plan.Spec.Target,
			Env: p.Plan.Spec.Env, Text: "preview posted again: the first was never recorded"})
		if err := e.st.SetPreview(ctx, p.ID, ref, shown); err != nil {
			e.log.Error("recording the preview posted again", "plan", p.ID, "err", err)
			continue
		}
		e.log.Warn("posted a plan's preview again: the previous process never recorded the first", "plan", p.ID)
	}
}
