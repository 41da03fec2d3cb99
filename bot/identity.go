package bot

import (
	"context"
	"errors"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy"
)

// lookupTimeout bounds asking a platform who holds a handle or whether someone is in a group.
const lookupTimeout = 10 * time.Second

// person resolves u, who spoke or reacted on a, for a policy judgement: it asks the platform
// which entries of lists name u now. A handle names u when the platform says that handle
// belongs to u's ID at this moment, so a renamed person keeps their rights and a person who
// takes someone's old name gains none. A group names u when the platform says u is in it.
// Whatever the platform cannot confirm (no resolver, an error, an unknown handle or group)
// names nobody: the policy fails closed, and the log says why. Call it outside store
// transactions; it does I/O.
func (e *Engine) person(ctx context.Context, a adapters.Adapter, u adapters.User, lists ...[]string) Person {
	p := Person{Platform: a.Name(), ID: u.ID, Name: u.Name}
	seen := map[string]bool{}
	for _, list := range lists {
		for _, raw := range list {
			if seen[raw] {
				continue
			}
			seen[raw] = true
			en := policy.ParseEntry(raw)
			if en.Platform != "" && en.Platform != p.Platform {
				continue
			}
			var ok bool
			if en.Group {
				ok = e.inGroup(ctx, a, u, en.Name)
			} else {
				ok = e.holds(ctx, a, u, en.Name)
			}
			if ok {
				p.Matches = append(p.Matches, raw)
			}
		}
	}
	return p
}

// holds reports whether the platform says handle belongs to u's ID now.
func (e *Engine) holds(ctx context.Context, a adapters.Adapter, u adapters.User, handle string) bool {
	if u.ID == "" {
		return false
	}
	ur, ok := a.(adapters.UserResolver)
	if !ok {
		e.log.Warn("the policy names people but this platform cannot say who a handle is; nobody matches", "platform", a.Name(), "handle", handle)
		return false
	}
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	who, err := ur.LookupUser(lctx, handle)
	switch {
	case errors.Is(err, adapters.ErrNoSuchUser):
		e.log.Warn("the policy names a handle nobody has on this platform", "platform", a.Name(), "handle", handle)
		return false
	case err != nil:
		e.log.Warn("looking up a handle named in the policy; counting it as nobody", "platform", a.Name(), "handle", handle, "err", err)
		return false
	}
	return who.ID == u.ID
}

// inGroup reports whether the platform says u is in group now.
func (e *Engine) inGroup(ctx context.Context, a adapters.Adapter, u adapters.User, group string) bool {
	gr, ok := a.(adapters.GroupResolver)
	if !ok {
		e.log.Warn("the policy names a group but this platform has none", "platform", a.Name(), "group", group)
		return false
	}
	gctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	in, err := gr.MemberOf(gctx, u, group)
	switch {
	case errors.Is(err, adapters.ErrNoSuchGroup):
		e.log.Error("the policy names a group the platform does not know", "platform", a.Name(), "group", group)
	case err != nil:
		e.log.Warn("checking group membership", "platform", a.Name(), "group", group, "user", u.Name, "err", err)
	}
	return err == nil && in
}
