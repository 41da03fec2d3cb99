package bot

import (
	"context"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
)

// reactionHandler answers one reaction, on its conversation's turn; what it returns is posted
// once, by handleReaction.
type reactionHandler func(e *Engine, ctx context.Context, a adapters.Adapter, r adapters.Reaction) answer

// reactionRoute is one row of the reaction table: the emoji it answers, by canonical name,
// and its handler.
type reactionRoute struct {
	answers func(emoji string) bool
	handle  reactionHandler
}

// reactions is the reaction table, beside the verb table (handlers, messages.go): every emoji
// that means something to Eos and its handler. A reaction goes to every row that answers its
// emoji, in the table's order; the rows' emoji do not overlap today, and triage comes before
// votes so that a row answering both would triage first, as the engine always has.
var reactions = []reactionRoute{
	{answers: isTriage, handle: (*Engine).triage}, // 🔧 📥 🔕 on a drift digest's post (triage.go)
	{answers: isVote, handle: (*Engine).vote},     // ✅ ❌ (and their aliases) on a preview (approve.go)
}

// isVote reports whether emoji approves or rejects a plan.
func isVote(emoji string) bool { return adapters.VoteOf(emoji) != adapters.NoVote }

// meansSomething reports whether a row of the reaction table answers emoji.
func meansSomething(emoji string) bool {
	for _, row := range reactions {
		if row.answers(emoji) {
			return true
		}
	}
	return false
}

// HandleReaction applies the approval policy to a reaction on a preview post (or triages the
// drift of a digest's service: 🔧, 📥, 🔕). Like HandleMessage it only queues the reaction, in the
// conversation of the post it is on.
func (e *Engine) HandleReaction(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	if r.User.Bot || !meansSomething(r.Emoji) {
		return // an emoji that means nothing to Eos takes no place in the queue
	}
	e.dispatch(ctx, a, r.Post, "reaction", func(ctx context.Context) { e.handleReaction(ctx, a, r) }, func(ctx context.Context, why string) {
		e.say(ctx, a, r.Post, render.TooBusyReaction(r.User.Name, r.Emoji, why))
	})
}

// handleReaction answers a reaction on its conversation's turn (HandleReaction), or one Eos
// acts on itself (recover.go): it goes to each row of the reaction table that answers it.
func (e *Engine) handleReaction(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	if !e.mayAct("reaction", a, r.Post) {
		return
	}
	for _, row := range reactions {
		if row.answers(r.Emoji) {
			e.answerReaction(ctx, a, r, row.handle(e, ctx, a, r))

		}
	}
}
