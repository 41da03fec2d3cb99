package console

import (
	"context"
	"strings"

	"github.com/eosbot/eos/adapters"
)

var _ adapters.UserResolver = (*Adapter)(nil)

// LookupUser returns the console user with handle: on the console a person is the name they
// type as (`/as NAME`), so the handle is the identity.
func (a *Adapter) LookupUser(_ context.Context, handle string) (adapters.User, error) {
	return user(strings.TrimPrefix(handle, "@")), nil
}
