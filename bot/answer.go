package bot

import (
	"context"

	"github.com/eosbot/eos/adapters"
)

// answer is what a handler says: one document, which the engine posts once, after the
// handler returns (answerMessage for the verb table, answerReaction for the reaction table).
// The zero answer says nothing. What posts more than once or edits what it posted (a preview
// recorded in the store, a run's progress and result, a drift answer with its details, a
// stop, a vote's status) still posts as it goes, through say.
type answer struct {
	doc adapters.Doc
	// to is the post in whose thread the answer goes; zero means the message or reaction
	// being answered.
	to adapters.PostRef
	// takeDown marks the answer to a message that holds a typed secret: the message is taken
	// down where the platform allows, and the answer says so (typedsecret.go).
	takeDown bool
}

// said is an answer of doc in the thread of what is answered.
func said(doc adapters.Doc) answer { return answer{doc: doc} }

// silent reports whether ans says nothing.
func (ans answer) silent() bool { return len(ans.doc.Blocks) == 0 && ans.doc.Attachment == nil }

// where is the post ans answers in the thread of, answering post unless ans names another.
func (ans answer) where(post adapters.PostRef) adapters.PostRef {
	if ans.to == (adapters.PostRef{}) {
		return post
	}
	return ans.to
}

// answerMessage posts what a handler said about c's message.
func (e *Engine) answerMessage(ctx context.Context, c conv, ans answer) {
	switch {
	case ans.silent():
	case ans.takeDown:
		e.takeDown(ctx, c, ans.doc)
	default:
		e.say(ctx, c.adapter, ans.where(c.msg.Post), ans.doc)
	}
}

// answerReaction posts what a handler said about reaction r.
func (e *Engine) answerReaction(ctx context.Context, a adapters.Adapter, r adapters.Reaction, ans answer) {
	if !ans.silent() {
		e.say(ctx, a, ans.where(r.Post), ans.doc)
	}
}

// answerOf is the answer of propose and its kin (adoptService, reconcileService), for a
// caller that does not need the plan's id.
func answerOf(_ string, ans answer) answer { return ans }
