package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// wrenchEmoji is 🔧's canonical name: on a drift digest's post it asks for a reconcile plan.
const wrenchEmoji = "wrench"

// wrench answers a 🔧 on a post of a drift digest with an ordinary reconcile plan preview of
// the service the post stands for, requested by the person who reacted, in the digest's
// thread. Every other reaction is left to the approval path untouched.
//
// A post yields at most one pending plan: a redelivered 🔧 changes nothing, and someone else's
// 🔧 while that plan is pending is pointed at it. On a headline listing several services the
// 🔧 is answered once, saying where to react instead. A post older than digestPostTTL plans
// nothing: while Eos still knows it (until the next prune) the 🔧 is answered once per person
// with the command to use instead; once pruned it is a post Eos does not know, and ignored.
func (e *Engine) wrench(ctx context.Context, a adapters.Adapter, r adapters.Reaction) {
	if r.Emoji != wrenchEmoji || r.Removed || r.User.Bot {
		return
	}
	dp, err := e.st.DigestPost(r.Post)
	if errors.Is(err, store.ErrNotFound) {
		return
	}
	if err != nil {
		e.log.Error("finding the digest post of a reaction", "post", r.Post.ID, "err", err)
		return
	}
	if dp.At.Before(e.now().Add(-digestPostTTL)) {
		if e.once(onceKey(r, "too old")) {
			e.say(ctx, a, r.Post, reply(tooOld(e.cfg.BotName, dp.Keys)))
		}
		return
	}
	switch len(dp.Keys) {
	case 0:
		return
	case 1:
		e.wrenchService(ctx, a, r, dp.Keys[0])
	default:
		first, err := e.st.MarkHinted(r.Post)
		if err != nil {
			e.log.Error("recording a digest hint", "post", r.Post.ID, "err", err)
		}
		if first {
			e.say(ctx, a, r.Post, reply(severalDrifted(dp.Keys)))
		}
	}
}

// wrenchService makes the reconcile plan of env/service for r, unless r's author may not ask
// for one or the post already has a plan pending.
func (e *Engine) wrenchService(ctx context.Context, a adapters.Adapter, r adapters.Reaction, key string) {
	env, service, _ := strings.Cut(key, "/")
	text := fmt.Sprintf("@%s reconcile %s in %s", e.cfg.BotName, service, env)
	ep := e.cfg.Policy.For(env, "reconcile")
	if !ep.MayRequest(e.person(ctx, a, r.User, ep.Requesters)) {
		if e.once(onceKey(r, "wrench")) {
			e.say(ctx, a, r.Post, reply(fmt.Sprintf("@%s can't ask for changes in %s (requesters: %s). Nothing changed.",
				r.User.Name, env, mentions(ep.Requesters))))
			e.audit(store.Entry{Kind: "refusal", User: r.User.Name, Platform: a.Name(), Service: service, Env: env, Text: "not a requester: 🔧 " + text})
		}
		return
	}
	claimed := e.now()
	live, err := e.st.ClaimDigestPost(r.Post, r.User.Name, claimed, planTimeout)
	if err != nil {
		e.log.Error("claiming a digest post", "post", r.Post.ID, "err", err)
		return
	}
	if live != nil {
		if live.User != r.User.Name && e.once(onceKey(r, "claimed")) {
			e.say(ctx, a, r.Post, reply(alreadyAsked(service, env, live)))
		}
		return
	}
	c := conv{a: a, m: adapters.Message{Post: r.Post, Author: r.User, Text: text, At: r.At}}
	planID := e.reconcileService(ctx, c, env, service)
	if err := e.st.SetClaimPlan(r.Post, r.User.Name, planID); err != nil {
		e.log.Error("recording the plan a digest post asked for", "post", r.Post.ID, "err", err)
	}
}

func onceKey(r adapters.Reaction, what string) string {
	return r.Post.Platform + "/" + r.Post.Channel + "/" + r.Post.ID + "/" + r.User.Name + "/" + what
}

// severalDrifted answers a 🔧 on a headline that lists more than one service.
func severalDrifted(keys []string) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		env, service, _ := strings.Cut(k, "/")
		names[i] = service + " in " + env
	}
	return fmt.Sprintf("This digest lists %d services (%s): react 🔧 on the service's own reply in this thread, or say @eos reconcile SERVICE in ENV.",
		len(keys), strings.Join(names, ", "))
}

// tooOld answers a 🔧 on a digest post older than digestPostTTL.
func tooOld(botName string, keys []string) string {
	ask := "@" + botName + " reconcile SERVICE in ENV"
	if len(keys) == 1 {
		env, service, _ := strings.Cut(keys[0], "/")
		ask = fmt.Sprintf("@%s reconcile %s in %s", botName, service, env)
	}
	return fmt.Sprintf("This digest is too old to act on (🔧 works for %d days after a digest): ask %s. Nothing planned.",
		int(digestPostTTL/(24*time.Hour)), ask)
}

// alreadyAsked answers a 🔧 on a post whose plan is still being made or waits for approval.
func alreadyAsked(service, env string, c *store.Claim) string {
	if c.PlanID == "" {
		return fmt.Sprintf("@%s is already asking for a reconcile plan of %s in %s from this post: its preview follows in this thread.", c.User, service, env)
	}
	return fmt.Sprintf("Plan %s (reconcile %s in %s, asked by @%s) is already waiting in this thread: approve or reject it there. Nothing new planned.",
		c.PlanID, service, env, c.User)
}
