package bot

import (
	"context"
	"errors"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// A plan is approved for the request as its preview shows it. When the request post changes
// afterwards (adapters.ChangeHandler), the engine never plans the new text silently: an edit
// cancels the pending plan and asks for the request again, a deletion cancels it, and either
// way the preview's status line says so and the audit log records it. A plan already approved
// runs as approved. Posts that asked for no plan are left alone.

var _ adapters.ChangeHandler = (*Engine)(nil)

const (
	reasonEdited  = "the request was edited after the preview"
	reasonDeleted = "the request was deleted"
)

// HandleEdit queues an edited post in its conversation, behind the request it may be (so the
// request's plan is stored before its edit is judged).
func (e *Engine) HandleEdit(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	if m.Author.Bot {
		return
	}
	e.dispatch(ctx, a, m.Post, "edit", func(ctx context.Context) { e.requestEdited(ctx, a, m) }, func(ctx context.Context, why string) {
		e.say(ctx, a, m.Post, render.TooBusyEdit(m.Author.Name, why))
	})
}

// HandleDelete queues a deleted post in its conversation, like HandleEdit.
func (e *Engine) HandleDelete(ctx context.Context, a adapters.Adapter, post adapters.PostRef) {
	e.dispatch(ctx, a, post, "delete", func(ctx context.Context) { e.requestDeleted(ctx, a, post) }, func(context.Context, string) {})
}

// requestEdited cancels the pending plans of an edited request and says so in its thread.
func (e *Engine) requestEdited(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	if !e.mayAct("edit", a, m.Post) {
		return
	}
	plans := e.requestPlans(ctx, m.Post)
	if len(plans) == 0 {
		return
	}
	c := conv{adapter: a, msg: m}
	if _, typed := e.parser.MaskSecrets(m.Text); typed {
		e.takeDown(ctx, c, render.SecretInEdit())
	}
	var cancelled, ran []string
	for _, p := range plans {
		switch {
		case p.Text == m.Text:
			// The text is unchanged (a pin, an attachment): nothing to say.
		case p.State == store.PlanPending:
			if e.cancelFor(ctx, a, p, reasonEdited, m.Author) {
				cancelled = append(cancelled, p.ID)
				e.showStatus(ctx, p.ID)
			}
		case p.State == store.PlanApproved && e.once(p.ID+"/edited"):
			ran = append(ran, p.ID)
		}
	}
	if len(cancelled) == 0 && len(ran) == 0 {
		return
	}
	e.say(ctx, a, m.Post, render.RequestEdited(m.Author.Name, cancelled, ran))
}

// requestDeleted cancels the pending plans of a deleted request. The preview says so; where it
// cannot be edited, a reply in its thread does (when the thread is still there).
func (e *Engine) requestDeleted(ctx context.Context, a adapters.Adapter, post adapters.PostRef) {
	if !e.mayAct("deletion", a, post) {
		return
	}
	for _, p := range e.requestPlans(ctx, post) {
		if p.State != store.PlanPending || !e.cancelFor(ctx, a, p, reasonDeleted, adapters.User{}) {
			continue
		}
		if !e.showStatus(ctx, p.ID) && p.Preview.ID != "" {
			e.say(ctx, a, p.Preview, render.CancelledBecause(p.ID, reasonDeleted))
		}
	}
}

// requestPlans are the plans post asked for.
func (e *Engine) requestPlans(ctx context.Context, post adapters.PostRef) []*store.Plan {
	plans, err := e.st.PlansByRequest(ctx, post)
	if err != nil {
		e.log.Error("finding the plans of a changed request", "post", post.ID, "err", err)
	}
	return plans
}

// cancelFor cancels pending plan p because its request changed, with its audit entry in the
// same transaction. It reports whether this call cancelled it.
func (e *Engine) cancelFor(ctx context.Context, a adapters.Adapter, p *store.Plan, reason string, by adapters.User) bool {
	_, err := e.st.UpdatePlanAudited(ctx, p.ID, func(p *store.Plan) ([]store.Entry, error) {
		if p.State != store.PlanPending {
			return nil, errNotPending
		}
		now := e.now()
		p.State, p.Updated = store.PlanCancelled, now
		p.Cancellation = &store.Cancellation{Reason: reason, At: now}
		return []store.Entry{e.entry(store.Entry{Kind: "cancel", User: by.Name, UserID: by.ID, Platform: a.Name(), PlanID: p.ID, Hash: p.Plan.Hash,
			Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env, Text: "cancelled: " + reason})}, nil
	})
	if err != nil {
		if !errors.Is(err, errNotPending) {
			e.log.Error("cancelling the plan of a changed request", "plan", p.ID, "err", err)
		}
		return false
	}
	return true
}
