package bot

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
)

// groupTimeout bounds asking a platform whether someone is in one group.
const groupTimeout = 10 * time.Second

// person resolves u for a policy judgement: the groups named in lists ("group:sre") that the
// platform says u belongs to. A platform without groups, or one that cannot answer, yields no
// groups: membership is never assumed. Call it outside store transactions; it does I/O.
func (e *Engine) person(ctx context.Context, a adapters.Adapter, u adapters.User, lists ...[]string) Person {
	p := Person{Name: u.Name}
	var named []string
	for _, list := range lists {
		for _, entry := range list {
			if g, ok := strings.CutPrefix(entry, groupPrefix); ok && !slices.Contains(named, g) {
				named = append(named, g)
			}
		}
	}
	if len(named) == 0 {
		return p
	}
	gr, ok := a.(adapters.GroupResolver)
	if !ok {
		e.log.Warn("the policy names groups but this platform has none", "platform", a.Name(), "groups", named)
		return p
	}
	for _, g := range named {
		gctx, cancel := context.WithTimeout(ctx, groupTimeout)
		in, err := gr.MemberOf(gctx, u, g)
		cancel()
		switch {
		case errors.Is(err, adapters.ErrNoSuchGroup):
			e.log.Error("the policy names a group the platform does not know", "platform", a.Name(), "group", g)
		case err != nil:
			e.log.Warn("checking group membership", "platform", a.Name(), "group", g, "user", u.Name, "err", err)
		case in:
			p.Groups = append(p.Groups, g)
		}
	}
	return p
}
