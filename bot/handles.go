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
// holder, renamed away, has no rights under the old handle either. A handle the platform says
// nobody holds when Eos first looks it up is pinned vacant: whoever takes it later is not known
// to be the person the policy means (a mistyped handle, someone not yet joined, or someone
// who saw the free name), so it names nobody until an operator says who. A rename therefore never
// grants rights. An operator points a handle at another account on purpose with
// `eos policy handles --forget PLATFORM:HANDLE`: the next look-up pins whoever holds it then.

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
// A who without an ID pins the handle vacant.
func (e *Engine) pin(ctx context.Context, platform, handle string, who adapters.User) (store.HandlePin, error) {
	text := "policy handle " + handle + " on " + platform + " pinned to account " + who.ID + " (@" + who.Name + ")"
	if who.ID == "" {
		text = "policy handle " + handle + " on " + platform + " pinned vacant: no account held it; it names nobody until an operator forgets the pin once the person it means holds it"
	}
	got, created, err := e.st.PinHandle(ctx, store.HandlePin{Platform: platform, Handle: handle, ID: who.ID, Name: who.Name, Since: e.now()},
		e.entry(store.Entry{Kind: "pin", User: who.Name, UserID: who.ID, Platform: platform, Text: text}))
	if err != nil {
		e.logFailure(ctx, "keeping a handle's pin; counting it as nobody (platform "+platform+", handle "+handle+")", err)
		return store.HandlePin{}, err
	}
	switch {
	case created && who.ID == "":
		e.log.Warn("the policy names a handle no account holds; it names nobody, and whoever takes it later gains nothing until an operator forgets the pin (eos policy handles --forget)",
			"platform", platform, "handle", handle)
	case created:
		e.log.Info("policy handle pinned to its account", "platform", platform, "handle", handle, "id", who.ID)
	}
	return got, nil
}

// pinPolicyHandles pins every handle the approval policy and the policy set's literal approvers
// name, on every platform it may mean, to whoever holds it now (vacant when nobody does); a
// handle pinned already is looked up too, and one that another account holds now is logged,
// its pin kept. Run at start-up and on reload, before reactions are judged.
func (e *Engine) pinPolicyHandles(ctx context.Context, as []adapters.Adapter) {
	handles := e.namedHandles()
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
			e.pinLookedUp(ctx, a, en.Name, pin)
		}
	}
}

// pinLookedUp looks handle up on a and pins it (pin is its pin, nil when it has none): to
// its holder, or vacant when the platform says nobody holds it. A look-up that fails
// otherwise pins nothing (the next one tries again). A pinned handle held now by another
// account is logged, its pin kept.
func (e *Engine) pinLookedUp(ctx context.Context, a adapters.Adapter, handle string, pin *store.HandlePin) {
	who, err := e.lookup(ctx, a, handle)
	switch {
	case errors.Is(err, adapters.ErrNoSuchUser) && pin == nil:
		_, _ = e.pin(ctx, a.Name(), handle, adapters.User{})
	case err != nil:
		// logged; pinned when the platform answers
	case pin == nil:
		_, _ = e.pin(ctx, a.Name(), handle, who)
	case pin.Vacant():
		e.warnHandleTaken(a.Name(), handle, *pin, who.ID)
	case pin.ID != who.ID:
		e.warnHandleMoved(a.Name(), handle, *pin, who.ID)
	}
}

// pinRuleHandles pins, on a's platform, the handles among the approvers of rules that have
// no pin yet: the handles a policy-as-code rule names are known only when it decides, so
// this runs as each plan is judged, before anyone can react to the plan.
func (e *Engine) pinRuleHandles(ctx context.Context, a adapters.Adapter, rules []Rule) {
	if a == nil {
		return
	}
	if _, ok := a.(adapters.UserResolver); !ok {
		return
	}
	for _, r := range rules {
		for _, h := range r.Approvers {
			en := policy.ParseEntry(h)
			if en.Group || en.Prefix != "" || en.Platform != "" && en.Platform != a.Name() {
				continue
			}
			pin, err := e.st.HandlePin(ctx, a.Name(), en.Name)
			switch {
			case err == nil:
				continue
			case !errors.Is(err, store.ErrNotFound):
				e.logFailure(ctx, "reading a handle's pin (platform "+a.Name()+", handle "+en.Name+")", err)
				continue
			}
			e.pinLookedUp(ctx, a, en.Name, pin)
		}
	}
}

// namedHandles are the handle entries the approval policy and the policy set's literal
// approvers name, without duplicates.
func (e *Engine) namedHandles() []string {
	handles := policyHandles(e.policy())
	e.code.mu.Lock()
	set := e.code.set
	e.code.mu.Unlock()
	for _, h := range set.Handles() {
		if !slices.Contains(handles, h) {
			handles = append(handles, h)
		}
	}
	return handles
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

// warnHandleTaken tells the operator that handle on platform, which nobody held when Eos first
// looked it up, is held now by holder, who gains nothing by it until the pin is forgotten.
func (e *Engine) warnHandleTaken(platform, handle string, pin store.HandlePin, holder string) {
	e.log.Warn("a handle the policy names, which no account held when Eos first looked it up, is held now; it admits nobody until an operator forgets the pin (eos policy handles --forget)",
		"platform", platform, "handle", handle, "vacant_since", pin.Since, "holder", holder)
}

// warnHandleMoved tells the operator that handle on platform is held now by holder, not by
// the account it is pinned to.
func (e *Engine) warnHandleMoved(platform, handle string, pin store.HandlePin, holder string) {
	e.log.Warn("a handle the policy names is held now by another account than the one it is pinned to; it admits nobody until the pin is forgotten (eos policy handles --forget)",
		"platform", platform, "handle", handle, "pinned", pin.ID, "pinned_name", pin.Name, "since", pin.Since, "holder", holder)
}

// PinHandleNow looks handle up on platform and pins it to whoever holds it now (vacant when
// nobody does), unless it is pinned already: an operator's `eos policy handles --forget`
// through the socket calls it right after the forget, so the command can say which account
// the handle names from now on. It returns the pin in force, or an error when the platform is
// not connected or cannot answer (the next look-up pins it then).
func (e *Engine) PinHandleNow(ctx context.Context, platform, handle string) (store.HandlePin, error) {
	a, ok := e.adapter(platform)
	if !ok {
		return store.HandlePin{}, errors.New("Eos is not connected to " + platform)
	}
	if _, ok := a.(adapters.UserResolver); !ok {
		return store.HandlePin{}, errNoResolver
	}
	pin, err := e.st.HandlePin(ctx, platform, handle)
	switch {
	case err == nil:
		return *pin, nil
	case !errors.Is(err, store.ErrNotFound):
		return store.HandlePin{}, err
	}
	e.pinLookedUp(ctx, a, handle, nil)
	pin, err = e.st.HandlePin(ctx, platform, handle)
	if errors.Is(err, store.ErrNotFound) {
		return store.HandlePin{}, errors.New(platform + " did not say who holds " + handle + "; the next look-up pins it")
	}
	if err != nil {
		return store.HandlePin{}, err
	}
	return *pin, nil
}
