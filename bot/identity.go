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
// which entries of lists name u now. A handle names u when the platform says u holds it now
// and it is pinned to u's ID, the account that held it when Eos first looked it up
// (handles.go): a person who takes someone's old handle gains nothing. A group names u when the platform says u is in it.
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
			why := nameOK
			if en.Group {
				if !e.inGroup(ctx, a, u, en.Name) {
					why = nameOther
				}
			} else {
				why = e.holds(ctx, a, u, en.Name)
			}
			switch why {
			case nameOK:
				p.Matches = append(p.Matches, raw)
			case nameMoved:
				p.Moved = append(p.Moved, raw)
			case nameVacant:
				p.Vacant = append(p.Vacant, raw)
			}
		}
	}
	return p
}

// naming is whether a policy entry names someone, and if not, why a refusal should explain.
type naming int

const (
	nameOK     naming = iota // the entry names them
	nameOther                // it names someone else, or nobody the platform confirms
	nameMoved                // they hold the handle, but it is pinned to another account
	nameVacant               // they hold the handle, but nobody held it when Eos first looked
)

// holds reports whether handle, as the policy names it, names u now: u holds the handle (the
// platform says so at this moment) and u's account is the one the handle is pinned to
// (handles.go: the account that held it when Eos first looked it up). So a rename never
// grants rights: whoever takes a handle its holder gave up gains none, and the holder,
// renamed away, has none under the old handle either (the policy names the new one when it
// should); nor does whoever takes a handle nobody held when Eos first looked it up.
func (e *Engine) holds(ctx context.Context, a adapters.Adapter, u adapters.User, handle string) naming {
	if u.ID == "" {
		return nameOther
	}
	who, err := e.lookup(ctx, a, handle)
	if err != nil || who.ID != u.ID {
		return nameOther
	}
	pin, err := e.pinOf(ctx, a.Name(), handle, who)
	switch {
	case err != nil:
		return nameOther
	case pin.Vacant():
		e.warnHandleTaken(a.Name(), handle, pin, u.ID)
		return nameVacant
	case pin.ID != u.ID:
		e.warnHandleMoved(a.Name(), handle, pin, u.ID)
		return nameMoved
	}
	return nameOK
}

// lookup asks a's platform which account holds handle now.
func (e *Engine) lookup(ctx context.Context, a adapters.Adapter, handle string) (adapters.User, error) {
	ur, ok := a.(adapters.UserResolver)
	if !ok {
		e.log.Warn("the policy names people but this platform cannot say who a handle is; nobody matches", "platform", a.Name(), "handle", handle)
		return adapters.User{}, errNoResolver
	}
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	who, err := ur.LookupUser(lctx, handle)
	switch {
	case errors.Is(err, adapters.ErrNoSuchUser):
		e.log.Warn("the policy names a handle nobody has on this platform", "platform", a.Name(), "handle", handle)
	case err != nil:
		e.log.Warn("looking up a handle named in the policy; counting it as nobody", "platform", a.Name(), "handle", handle, "err", err)
	case who.ID == "":
		err = adapters.ErrNoSuchUser
	}
	return who, err
}

var errNoResolver = errors.New("the platform cannot say who holds a handle")

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
