package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// conv is one message being answered: the adapter it came through and the message (where it
// was posted and who sent it).
type conv struct {
	adapter adapters.Adapter
	msg     adapters.Message
}

func (c conv) user() string { return c.msg.Author.Name }

// handler answers one verb; what it returns is posted once, by handleMessage.
type handler func(e *Engine, ctx context.Context, c conv, in *intents.Intent) answer

// handlers maps every verb to its handler; verbsCovered checks at start-up that none is
// missing, so a new verb without a handler fails the tests, not a conversation.
var handlers = map[intents.Verb]handler{
	intents.VerbCreate:    (*Engine).request,
	intents.VerbUpdate:    (*Engine).request,
	intents.VerbDestroy:   (*Engine).request,
	intents.VerbOperation: (*Engine).request,
	intents.VerbPlan:      (*Engine).plan,
	intents.VerbRollback:  (*Engine).rollback,
	intents.VerbStatus:    (*Engine).status,
	intents.VerbHistory:   (*Engine).history,
	intents.VerbHelp:      (*Engine).help,
	intents.VerbCancel:    (*Engine).cancel,
	intents.VerbDrift:     (*Engine).drift,
	intents.VerbReconcile: (*Engine).reconcile,
	intents.VerbAdopt:     (*Engine).adopt,
	intents.VerbPolicy:    (*Engine).answerPolicy,
	intents.VerbLocks:     (*Engine).locks,
	intents.VerbWhy:       (*Engine).why,
	intents.VerbWeb:       (*Engine).web,
}

func verbsCovered() error {
	for v := intents.VerbCreate; v < intents.VerbCount; v++ {
		if handlers[v] == nil {
			return fmt.Errorf("bot: verb %s has no handler", v)
		}
	}
	return nil
}

// handleMessage answers a message addressed to Eos; HandleMessage (dispatch.go) calls it on
// the message's conversation's turn.
func (e *Engine) handleMessage(ctx context.Context, a adapters.Adapter, m adapters.Message) {
	if !e.mayAct("message", a, m.Post) || !e.firstDelivery(ctx, a, m) {
		return
	}
	c := conv{adapter: a, msg: m}
	if r, ok := a.(adapters.Reactor); ok {
		if err := r.React(ctx, m.Post, "eyes"); err != nil {
			e.log.Warn("reacting to request", "platform", a.Name(), "err", err)
		}
	}
	e.m.messages.WithLabelValues(a.Name()).Inc()
	in, err := e.parser.Parse(m.Text)
	if err != nil {
		e.m.parseErrors.Inc()
		e.answerMessage(ctx, c, e.turnAway(c, e.parseErrorDoc(err)))
		return
	}
	if msg := e.unknownEnv(ctx, in); msg != "" {
		e.answerMessage(ctx, c, e.turnAway(c, render.Reply(msg)))
		return
	}
	log := e.log.With("conv", convID(m.Post), "platform", a.Name(), "user", m.Author.Name)
	log.Info("request", "verb", in.VerbWord(), "noun", in.Noun)
	hctx := executor.WithLog(ctx, log)
	e.answerMessage(hctx, c, handlers[in.Verb](e, hctx, c, in))
}

// convID is the correlation id of a conversation: its request post. Every log line about the
// conversation, in the engine and in the layers, carries it as conv=....
func convID(request adapters.PostRef) string { return request.Platform + ":" + request.ID }

// parseErrorDoc explains a mistake: what is wrong, where, and what would be right.
func (e *Engine) parseErrorDoc(err error) adapters.Doc {
	var pe *intents.Error
	if !errors.As(err, &pe) {
		e.log.Error("parser failed", "err", err)
		return render.Unreadable(err)
	}
	return render.ParseError(pe, e.cfg.Catalog)
}

// userError is a refusal whose text is meant for the channel. secret marks a message in which
// someone typed a secret, which is taken down where the platform allows.
type userError struct {
	msg    string
	secret bool
}

func (u *userError) Error() string { return u.msg }

// fail answers a failed request: a userError is said as is (a typed secret's refusal with the
// message taken down: typedsecret.go); anything else is logged and reported without internals.
func (e *Engine) fail(c conv, what string, err error) answer {
	var ue *userError
	if errors.As(err, &ue) {
		return answer{doc: render.Reply(ue.msg), takeDown: ue.secret}
	}
	e.log.Error(what, "platform", c.adapter.Name(), "user", c.user(), "err", err)
	return said(render.Failed(what, err))
}
