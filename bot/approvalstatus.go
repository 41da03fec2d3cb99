package bot

import (
	"context"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// showStatus edits the preview of plan id to show the plan as the store has it now. It
// reports whether the preview shows it; when not (a platform without Editor, a preview that is
// gone, an edit that failed, a replica that does not lead) the caller says it in the thread.
// Edits are made one at a time, each from the state read under the lock, so the last edit
// always shows the latest state, whichever change came first.
func (e *Engine) showStatus(ctx context.Context, id string) bool {
	if e.leading() != nil {
		return false
	}
	e.statusMu.Lock()
	defer e.statusMu.Unlock()
	p, err := e.st.Plan(ctx, id)
	if err != nil || p.Preview.ID == "" || p.State == store.PlanPreview {
		return false
	}
	a, ok := e.adapter(p.Preview.Platform)
	if !ok {
		return false
	}
	ed, ok := a.(adapters.Editor)
	if !ok {
		return false
	}
	// Only a waiting plan's status line weighs its approvals; the rest say how the plan ended,
	// so no approver need be asked of the platform again for them.
	j := e.unjudged(p)
	if p.State == store.PlanPending {
		j = e.judge(ctx, a, p)
	}
	doc := e.planLinked(render.EditedPreview(p, j.view(), render.VaultRow(p.Plan, e.cfg.Runner.SecretsConfigured())), p.ID)
	if err := ed.Edit(ctx, p.Preview, doc); err != nil {
		e.log.Warn("editing the preview's approval status", "plan", id, "state", p.State, "err", err)
		return false
	}
	return true
}
