package bot

import (
	"context"
	"errors"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// historyLimit is how many runs `history` lists.
const historyLimit = 10

// help answers `help [topic]` from the catalog.
func (e *Engine) help(ctx context.Context, c conv, in *intents.Intent) answer {
	if in.Noun == "policy" {
		return e.answerPolicy(ctx, c, &intents.Intent{Verb: intents.VerbPolicy})
	}
	text, err := e.parser.Help(in.Noun)
	if err != nil {
		return said(e.parseErrorDoc(err))
	}
	return said(adapters.NewDoc(adapters.Text{Text: text}))
}

// history answers `history [service]`: the latest runs, newest first.
func (e *Engine) history(ctx context.Context, c conv, in *intents.Intent) answer {
	runs, err := e.st.Runs(ctx, func(r *store.Run) bool {
		return (in.Noun == "" || r.Target == in.Noun) && (in.Env == "" || r.Env == in.Env)
	})
	if err != nil {
		return e.fail(c, "reading history", err)
	}
	if len(runs) == 0 {
		what := "anything"
		if in.Noun != "" {
			what = in.Noun
		}
		return said(render.NoRuns(what, in.Env))
	}
	more := len(runs) - historyLimit
	if more > 0 {
		runs = runs[:historyLimit]
	}
	return said(render.History(runs, in.Noun, in.Env, more))
}

// cancel answers `cancel [ID]`: the requester or an approver ends a pending plan, or stops a
// running one at the next safe point. Without an id, said in a plan's thread, it is about
// that plan (whoever asked for it: the same people may cancel it as with its id); elsewhere it
// cancels the caller's pending plan when there is one, and lists them, cancelling none, when
// there are several.
func (e *Engine) cancel(ctx context.Context, c conv, in *intents.Intent) answer {
	id := in.Noun
	if id == "" {
		if p := e.threadPlan(ctx, c); p != nil {
			id = p.ID
		}
	}
	if id == "" {
		mine, err := e.st.OpenPlans(ctx, func(p *store.Plan) bool {
			return p.State == store.PlanPending && p.Request.Platform == c.adapter.Name() && p.Requester.ID == c.msg.Author.ID && e.sees(c, p)
		})
		if err != nil || len(mine) == 0 {
			return said(render.NothingToCancel())
		}
		if len(mine) > 1 {
			// Which one is meant is the asker's to say: cancelling the latest could end the
			// wrong plan.
			return said(render.WhichToCancel(mine))
		}
		id = mine[0].ID
	}
	// Group membership is asked of the platform before the store transaction, not inside it.
	who := Person{Platform: c.adapter.Name(), ID: c.msg.Author.ID, Name: c.user()}
	if p, err := e.st.Plan(ctx, id); err == nil && !e.sees(c, p) {
		return said(render.NoSuchPlan(id))
	} else if err == nil {
		who = e.person(ctx, c.adapter, c.msg.Author, policy.ApproverLists(e.planRules(p))...)
	}
	// An approval may land between reading the plan and cancelling it: then the approved
	// plan is halted (before its run starts, or at the next safe point), never refused.
	for attempt := 0; attempt < 2; attempt++ {
		if p, err := e.st.Plan(ctx, id); err == nil && p.State == store.PlanApproved && e.halt(ctx, c.adapter, c.msg.Post, p, c.msg.Author, who) {
			// Cancelled before its run started, or stopped at the next safe point; halt said
			// so itself (stop.go).
			return answer{}
		}
		if approvedMeanwhile, ans := e.cancelPending(ctx, c, id, who); !approvedMeanwhile {
			return ans
		}
	}
	return answer{}
}

// cancelPending cancels pending plan id for who and says so; it reports true, having said
// nothing, when the plan was approved meanwhile and the caller should halt it instead. A
// refusal is returned; a cancel is said here, as the preview's status line says it after.
func (e *Engine) cancelPending(ctx context.Context, c conv, id string, who Person) (approvedMeanwhile bool, ans answer) {
	p, err := e.st.UpdatePlan(ctx, id, func(p *store.Plan) error {
		rules := e.planRules(p)
		if p.State == store.PlanApproved && p.RunStarted.IsZero() {
			return errApprovedMeanwhile
		}
		if p.State != store.PlanPending {
			return &userError{msg: render.NotPendingToCancel(p.ID, p.State)}
		}
		if !MayReject(rules, who, who.Is(p.Request.Platform, p.Requester.ID)) {
			return &userError{msg: render.CantCancel(c.user(), p.ID, p.Requester.Name, render.RulesWho(rules))}
		}
		now := e.now()
		p.State, p.Updated = store.PlanCancelled, now
		p.Cancellation = &store.Cancellation{By: &store.Vote{User: c.user(), UserID: c.msg.Author.ID, Platform: c.adapter.Name(), At: now}, At: now}
		return nil
	})
	switch {
	case errors.Is(err, errApprovedMeanwhile):
		return true, answer{}
	case errors.Is(err, store.ErrNotFound):
		return false, said(render.NoSuchPlan(id))
	case err != nil:
		return false, e.fail(c, "cancelling", err)
	default:
		e.audit(ctx, store.Entry{Kind: "cancel", User: c.user(), Platform: c.adapter.Name(), PlanID: p.ID, Hash: p.Plan.Hash, Service: p.Plan.Spec.Target, Env: p.Plan.Spec.Env, Text: "cancelled"})
		e.say(ctx, c.adapter, c.msg.Post, render.Cancelled(p.ID, c.user()))
		e.showStatus(ctx, p.ID)
	}
	return false, answer{}
}

// errApprovedMeanwhile says a plan to cancel was approved after it was read.
var errApprovedMeanwhile = errors.New("approved meanwhile")
