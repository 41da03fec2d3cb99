package bot

import (
	"context"
	"errors"
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// An approval counts while its reaction is on the preview, and only then.
//
// A platform may deliver an event late or twice: Slack retries an event it thinks was not
// received, and a client's reconnection can replay one. A ✅ delivered again after the person
// took it off would count as an approval nobody shows, and could complete the plan's
// approvals and start its run; a removal delivered again after the person put the ✅ back
// would take back an approval the preview still shows. So before a ✅ or its removal changes
// a plan's approvals, Eos asks the platform whether that person's emoji is on the preview,
// and goes by what it shows. When the platform cannot answer, a ✅ does not count yet and a
// removal is taken as delivered: either way no approval stands that Eos could not confirm. A
// platform that cannot list reactions (none of Eos's own adapters) keeps reactions as
// delivered. The question is asked on the conversation's turn, so events are still handled
// in the order they arrived.

// asShown reports whether approving reaction r (a ✅ or its removal) on plan p goes ahead: it
// is not an approving emoji, or p is not a plan approvals can change, or the platform cannot
// list reactions, or what it lists agrees with r. When it does not, what is returned is the
// answer.
func (e *Engine) asShown(ctx context.Context, a adapters.Adapter, p *store.Plan, r adapters.Reaction) (bool, answer) {
	open := p.State == store.PlanPending || p.State == store.PlanApproved && p.RunStarted.IsZero()
	if adapters.VoteOf(r.Emoji) != adapters.Approve || !open {
		return true, answer{}
	}
	rr, ok := a.(adapters.ReactionReader)
	if !ok {
		return true, answer{}
	}
	listed, err := rr.Reactions(ctx, p.Preview)
	switch {
	case err != nil && r.Removed:
		return true, answer{} // a withdrawal Eos cannot check is taken: it leaves fewer approvals
	case errors.Is(err, adapters.ErrNoSuchPost):
		e.log.Info("an approval on a preview that is gone does not count", "plan", p.ID, "user", r.User.Name)
		return false, answer{}
	case err != nil:
		e.log.Warn("confirming an approval with the platform", "plan", p.ID, "user", r.User.Name, "err", err)
		return false, said(render.ApprovalUnconfirmed(p.ID, r.User.Name, a.Name(), err))
	}
	shown := slices.ContainsFunc(listed, func(s adapters.Reaction) bool {
		return s.User.ID == r.User.ID && s.Emoji == r.Emoji && !s.Removed
	})
	switch {
	case r.Removed && shown:
		e.log.Info("a removal whose emoji is still on the preview changes nothing", "plan", p.ID, "user", r.User.Name, "emoji", r.Emoji)
		return false, answer{}
	case r.Removed || shown:
		return true, answer{}
	}
	e.log.Info("an approval whose reaction is no longer on the preview does not count", "plan", p.ID, "user", r.User.Name, "emoji", r.Emoji)
	if !e.once(p.ID + "/" + r.Post.Platform + ":" + r.User.ID + "/" + r.Emoji + "/gone") {
		return false, answer{}
	}
	return false, said(render.ApprovalNotShown(p.ID, r.User.Name, a.Name()))
}
