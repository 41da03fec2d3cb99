package bot

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/store"
)

// A policy names people by handle, but a handle is a name its holder can change and someone
// else can then take. So each handle the policy names is pinned, per platform, to the account
// that held it when Eos first looked it up: at start-up for the handles the configuration
// names, at the first judgement that needs it for the others (a Rego rule's approvers). The
// pin is kept in the store with an audit line, so a restart keeps it. From then on the handle
// names someone only while the pinned account holds it (identity.go, holds): whoever takes the
// handle after its holder gave it up gains nothing, and the log and the refusal say so; the
// holder, renamed away, has no rights under the old handle either. A rename therefore never
// grants rights. An operator points a handle at another account on purpose with
// `eos policy handles --forget PLATFORM:HANDLE`.

// pinOf is the pin of handle on platform, pinning it to who (its holder now, as the platform
// said) when it has none. It fails when the store cannot read or keep the pin: the handle
// then admits nobody.
func (e *Engine) pinOf(ctx context.Context, platform, handle string, who adapters.User) (store.HandlePin, error) {
	pin, err := e.st.HandlePin(ctx, platform, handle)
	if err == nil {
		return *pin, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		e.logFailure(ctx, "reading a handle's pin; counting it as nobody (platform "+platform+", handle "+handle+")", err)
		return store.HandlePin{}, err
	}
	return e.pin(ctx, platform, handle, who)
}

// pin pins handle on platform to who (unless it is pinned already: the pin in force is
// returned) and logs it.
func (e *Engine) pin(ctx context.Context, platform, handle string, who adapters.User) (store.HandlePin, error) {
	text := "policy handle " + handle + " on " + platform + " pinned to account " + who.ID + " (@" + who.Name + ")"
	got, created, err := e.st.PinHandle(ctx, store.HandlePin{Platform: platform, Handle: handle, ID: who.ID, Name: who.Name, Since: e.now()},
		e.entry(store.Entry{Kind: "pin", User: who.Name, UserID: who.ID, Platform: platform, Text: text}))
	if err != nil {
		e.logFailure(ctx, "keeping a handle's pin; counting it as nobody (platform "+platform+", handle "+handle+")", err)
		return store.HandlePin{}, err
	}
	if created {
		e.log.Info("policy handle pinned to its account", "platform", platform, "handle", handle, "id", who.ID)
	}
	return got, nil
}

// pinPolicyHandles pins every handle the approval policy names, on every platform it may mean,
// to whoever holds it now; a handle pinned already is looked up too, and one that another
// account holds now is logged, its pin kept. Run at start-up, before reactions are judged.
func (e *Engine) pinPolicyHandles(ctx context.Context, as []adapters.Adapter) {
	handles := policyHandles(e.policy())
	for _, a := range as {
		if _, ok := a.(adapters.UserResolver); !ok {
			continue
		}
		for _, h := range handles {
			if ctx.Err() != nil {
				return // stopping: the next start, or the first judgement, pins the rest
			}
			en := policy.ParseEntry(h)
			if en.Platform != "" && en.Platform != a.Name() || en.Prefix != "" {
				continue
			}
			pin, err := e.st.HandlePin(ctx, a.Name(), en.Name)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				e.logFailure(ctx, "reading a handle's pin (platform "+a.Name()+", handle "+en.Name+")", err)
				continue
			}
			who, lerr := e.lookup(ctx, a, en.Name)
			switch {
			case lerr != nil:
				continue // logged; pinned when someone holds it
			case pin == nil:
				_, _ = e.pin(ctx, a.Name(), en.Name, who)
			case pin.ID != who.ID:
				e.warnHandleMoved(a.Name(), en.Name, *pin, who.ID)
			}
		}
	}
}

// policyHandles are the handle entries (not groups) of every rule of pol, without duplicates.
func policyHandles(pol Policy) []string {
	var out []string
	add := func(list []string) {
		for _, s := range list {
			if !policy.ParseEntry(s).Group && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	for _, ep := range append([]policy.EnvPolicy{pol.Default}, slices.Collect(maps.Values(pol.Envs))...) {
		add(ep.Requesters)
		add(ep.Approvers)
		for _, vp := range ep.Verbs {
			add(vp.Requesters)
			add(vp.Approvers)
		}
		for _, rp := range ep.Risks {
			add(rp.Approvers)
		}
	}
	slices.Sort(out)
	return out
}

// warnHandleMoved tells the operator that handle on platform is held now by holder, not by
// the account it is pinned to.
func (e *Engine) warnHandleMoved(platform, handle string, pin store.HandlePin, holder string) {
	e.log.Warn("a handle the policy names is held now by another account than the one it is pinned to; it admits nobody until the pin is forgotten (eos policy handles --forget)",
		"platform", platform, "handle", handle, "pinned", pin.ID, "pinned_name", pin.Name, "since", pin.Since, "holder", holder)
}
