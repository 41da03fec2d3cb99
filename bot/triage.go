package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// The reactions that triage a drifted service, on a digest's post or a `drift` answer, by
// their canonical names.
const (
	wrenchEmoji = "wrench"     // 🔧 plans a reconcile: re-apply the declared state
	adoptEmoji  = "inbox_tray" // 📥 plans an adopt: take what runs as the declared state
	snoozeEmoji = "no_bell"    // 🔕 snoozes the service's drift for snoozeFor
)

// isTriage reports whether emoji triages drift.
func isTriage(emoji string) bool {
	return emoji == wrenchEmoji || emoji == adoptEmoji || emoji == snoozeEmoji
}

// triage answers a 🔧, 📥 or 🔕 on a post of a drift digest (or `drift` answer) for the
// service the post stands for, as the person who reacted. Every other reaction is left to the
// approval path untouched.
//
// 🔧 and 📥 make an ordinary plan, previewed in the digest's thread and approved like any
// other. Removing a 🔕 lifts the snooze (snooze.go). A post yields at most one pending plan: a redelivered reaction changes nothing, and
// someone else's while that plan is pending is pointed at it. On a headline listing several
// services the reaction is answered once, saying where to react instead. A post older than
// digestPostTTL acts on nothing: while Eos still knows it (until the next prune) the reaction
// is answered once per person with the command to use instead; once pruned it is a post Eos
// does not know, and ignored.
func (e *Engine) triage(ctx context.Context, a adapters.Adapter, r adapters.Reaction) answer {
	if !isTriage(r.Emoji) || r.User.Bot || r.Removed && r.Emoji != snoozeEmoji {
		return answer{}
	}
	dp, err := e.st.DigestPost(ctx, r.Post)
	if errors.Is(err, store.ErrNotFound) {
		return answer{}
	}
	if err != nil {
		e.log.Error("finding the digest post of a reaction", "post", r.Post.ID, "err", err)
		return answer{}
	}
	if dp.At.Before(e.now().Add(-digestPostTTL)) {
		if !r.Removed && e.once(onceKey(r, "too old")) {
			return said(render.TooOld(e.cfg.BotName, dp.Keys, int(digestPostTTL/(24*time.Hour))))
		}
		return answer{}
	}
	switch len(dp.Keys) {
	case 0:
		return answer{}
	case 1:
		switch {
		case r.Removed:
			return e.liftSnooze(ctx, a, r, dp.Keys[0])
		case r.Emoji == snoozeEmoji:
			return e.snoozeService(ctx, a, r, dp.Keys[0])
		case r.Emoji == adoptEmoji:
			return e.planFromPost(ctx, a, r, dp.Keys[0], "adopt", e.adoptService)
		default:
			return e.planFromPost(ctx, a, r, dp.Keys[0], "reconcile", e.reconcileService)
		}
	default:
		if r.Removed {
			return answer{}
		}
		first, err := e.st.MarkHinted(ctx, r.Post)
		if err != nil {
			e.log.Error("recording a digest hint", "post", r.Post.ID, "err", err)
		}
		if first {
			return said(render.Reply(render.SeveralDrifted(dp.Keys)))
		}
		return answer{}
	}
}

// mayTriage reports whether r's author may ask for changes of env's services by verb, and
// what to say when they may not (once per person and post).
func (e *Engine) mayTriage(ctx context.Context, a adapters.Adapter, r adapters.Reaction, env, service, verb, text string) (bool, answer) {
	if verb != VerbSnooze {
		// A reconcile or adopt plans a change: refused where a typed one would be.
		if ok, msg := e.envAllowed(ctx, env, intents.VerbReconcile); !ok {
			if e.once(onceKey(r, verb)) {
				return false, said(render.Reply(msg))
			}
			return false, answer{}
		}
	}
	ep := e.policy().For(env, verb)
	if ep.MayRequest(e.person(ctx, a, r.User, ep.Requesters)) {
		return true, answer{}
	}
	if e.once(onceKey(r, verb)) {
		e.audit(ctx, store.Entry{Kind: "refusal", User: r.User.Name, Platform: a.Name(), Service: service, Env: env,
			Text: "not a requester: :" + r.Emoji + ": " + text})
		return false, said(render.NotRequester(r.User.Name, env, ep.Requesters))
	}
	return false, answer{}
}

// planFromPost makes the verb plan of env/service (reconcile or adopt, made by propose) for
// r, unless r's author may not ask for one or the post already has a plan pending.
func (e *Engine) planFromPost(ctx context.Context, a adapters.Adapter, r adapters.Reaction, key, verb string,
	propose func(ctx context.Context, c conv, env, service string) (string, answer)) answer {
	env, service, _ := strings.Cut(key, "/")
	text := fmt.Sprintf("@%s %s %s in %s", e.cfg.BotName, verb, service, env)
	if ok, refusal := e.mayTriage(ctx, a, r, env, service, verb, text); !ok {
		return refusal
	}
	live, err := e.st.ClaimDigestPost(ctx, r.Post, r.User.Name, e.now(), planTimeout)
	if err != nil {
		e.log.Error("claiming a digest post", "post", r.Post.ID, "err", err)
		return answer{}
	}
	if live != nil {
		if live.User != r.User.Name && e.once(onceKey(r, "claimed")) {
			return said(render.Reply(render.AlreadyAsked(service, env, e.claimVerb(ctx, live), live)))
		}
		return answer{}
	}
	c := conv{adapter: a, msg: adapters.Message{Post: r.Post, Author: r.User, Text: text, At: r.At}}
	planID, ans := propose(ctx, c, env, service)
	if err := e.st.SetClaimPlan(ctx, r.Post, r.User.Name, planID); err != nil {
		e.log.Error("recording the plan a digest post asked for", "post", r.Post.ID, "err", err)
	}
	return ans
}

// claimVerb is what the plan of a live claim does ("reconcile", "adopt"), or "" while it is
// being made.
func (e *Engine) claimVerb(ctx context.Context, c *store.Claim) string {
	if c.PlanID == "" {
		return ""
	}
	p, err := e.st.Plan(ctx, c.PlanID)
	if err != nil {
		return ""
	}
	return p.Plan.Spec.Verb
}

func onceKey(r adapters.Reaction, what string) string {
	return r.Post.Platform + "/" + r.Post.Channel + "/" + r.Post.ID + "/" + r.User.Name + "/" + what
}
