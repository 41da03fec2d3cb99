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
func (e *Engine) triage(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	if !isTriage(r.Emoji) || r.User.Bot || r.Removed && r.Emoji != snoozeEmoji {
		return
	}
	dp, err := e.st.DigestPost(ctx, r.Post)
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	if err != nil {
		e.log.Error("finding the digest post of a reaction", "post", r.Post.ID, "err", err)
		return
	}
	if dp.At.Before(e.now().Add(-digestPostTTL)) {
		if !r.Removed && e.once(onceKey(r, "too old")) {
			e.say(ctx, a, r.Post, reply(tooOld(e.cfg.BotName, dp.Keys)))
		}
		return
	}
	switch len(dp.Keys) {
	case 0:
		return
	case 1:
		switch {
		case r.Removed:
			e.liftSnooze(ctx, a, r, dp.Keys[0])
		case r.Emoji == snoozeEmoji:
			e.snoozeService(ctx, a, r, dp.Keys[0])
		case r.Emoji == adoptEmoji:
			e.planFromPost(ctx, a, r, dp.Keys[0], "adopt", e.adoptService)
		default:
			e.planFromPost(ctx, a, r, dp.Keys[0], "reconcile", e.reconcileService)
		}
	default:
		if r.Removed {
			return
		}
		first, err := e.st.MarkHinted(ctx, r.Post)
		if err != nil {
			e.log.Error("recording a digest hint", "post", r.Post.ID, "err", err)
		}
		if first {
			e.say(ctx, a, r.Post, reply(render.SeveralDrifted(dp.Keys)))
		}
	}
}

// mayTriage reports whether r's author may ask for changes of env's services by verb, and
// says why not (once per person and post) when they may not.
func (e *Engine) mayTriage(ctx context.Context, a adapters.Adapter, r adapters.Reaction, env, service, verb, text string) bool {
	if verb != VerbSnooze {
		// A reconcile or adopt plans a change: refused where a typed one would be.
		if ok, msg := e.envAllowed(ctx, env, intents.VerbReconcile); !ok {
			if e.once(onceKey(r, verb)) {
				e.say(ctx, a, r.Post, reply(msg))
			}
			return false
		}
	}
	ep := e.policy().For(env, verb)
	if ep.MayRequest(e.person(ctx, a, r.User, ep.Requesters)) {
		return true
	}
	if e.once(onceKey(r, verb)) {
		e.say(ctx, a, r.Post, reply(fmt.Sprintf("@%s can't ask for changes in %s (requesters: %s). Nothing changed.",
			r.User.Name, env, mentions(ep.Requesters))))
		e.audit(ctx, store.Entry{Kind: "refusal", User: r.User.Name, Platform: a.Name(), Service: service, Env: env,
			Text: "not a requester: :" + r.Emoji + ": " + text})
	}
	return false
}

// planFromPost makes the verb plan of env/service (reconcile or adopt, made by propose) for
// r, unless r's author may not ask for one or the post already has a plan pending.
func (e *Engine) planFromPost(ctx context.Context, a adapters.Adapter, r adapters.Reaction, key, verb string,
	propose func(ctx context.Context, c conv, env, service string) string) {
	env, service, _ := strings.Cut(key, "/")
	text := fmt.Sprintf("@%s %s %s in %s", e.cfg.BotName, verb, service, env)
	if !e.mayTriage(ctx, a, r, env, service, verb, text) {
		return
	}
	live, err := e.st.ClaimDigestPost(ctx, r.Post, r.User.Name, e.now(), planTimeout)
	if err != nil {
		e.log.Error("claiming a digest post", "post", r.Post.ID, "err", err)
		return
	}
	if live != nil {
		if live.User != r.User.Name && e.once(onceKey(r, "claimed")) {
			e.say(ctx, a, r.Post, reply(render.AlreadyAsked(service, env, e.claimVerb(ctx, live), live)))
		}
		return
	}
	c := conv{adapter: a, msg: adapters.Message{Post: r.Post, Author: r.User, Text: text, At: r.At}}
	planID := propose(ctx, c, env, service)
	if err := e.st.SetClaimPlan(ctx, r.Post, r.User.Name, planID); err != nil {
		e.log.Error("recording the plan a digest post asked for", "post", r.Post.ID, "err", err)
	}
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

// tooOld answers a triage reaction on a digest post older than digestPostTTL.
func tooOld(botName string, keys []string) string {
	ask := "@" + botName + " reconcile SERVICE in ENV"
	if len(keys) == 1 {
		env, service, _ := strings.Cut(keys[0], "/")
		ask = fmt.Sprintf("@%s reconcile %s in %s", botName, service, env)
	}
	return fmt.Sprintf("This digest is too old to act on (🔧, 📥 and 🔕 work for %d days after a digest): ask %s. Nothing planned.",
		int(digestPostTTL/(24*time.Hour)), ask)
}
