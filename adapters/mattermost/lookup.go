package mattermost

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// LookupUser says who has the username handle now (the @ optional; Mattermost usernames are
// lower case, so case does not matter), asking the server every time
// (GET /api/v4/users/username/{username}): nothing is cached, so the moment someone renames
// themselves the old name names nobody and the new one names them. A username nobody has, and
// a deactivated account, are adapters.ErrNoSuchUser.
func (a *Adapter) LookupUser(ctx context.Context, handle string) (adapters.User, error) {
	name := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(handle), "@"))
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz0123456789._-") != "" {
		// No username has other characters; the client puts the name in the URL's path unescaped.
		return adapters.User{}, fmt.Errorf("mattermost user %q: %w", handle, adapters.ErrNoSuchUser)
	}
	u, resp, err := a.api.GetUserByUsername(ctx, name, "")
	switch {
	case statusOf(resp) == http.StatusNotFound:
		return adapters.User{}, fmt.Errorf("mattermost user %q: %w", name, adapters.ErrNoSuchUser)
	case err != nil:
		return adapters.User{}, fmt.Errorf("looking up mattermost user %q: %w", name, refusal(statusOf(resp), err))
	case u.DeleteAt != 0:
		return adapters.User{}, fmt.Errorf("mattermost user %q is deactivated: %w", name, adapters.ErrNoSuchUser)
	case !strings.EqualFold(u.Username, name):
		// Never trust an answer for someone else.
		return adapters.User{}, fmt.Errorf("looking up mattermost user %q: the server answered with %q", name, u.Username)
	}
	return a.users.put(u), nil
}

// onUserUpdated refreshes the cached user of a user_updated event, so that the events that
// follow a rename carry the new name. The event's "user" is an object, not JSON text.
func (a *Adapter) onUserUpdated(ev *model.WebSocketEvent) error {
	raw, ok := ev.GetData()["user"]
	if !ok {
		return fmt.Errorf("event has no %q field", "user")
	}
	var u model.User
	if err := remarshal(raw, &u); err != nil {
		return fmt.Errorf("decoding %q: %w", "user", err)
	}
	if u.Id == "" {
		return fmt.Errorf("event's user has no id")
	}
	if u.DeleteAt != 0 {
		a.users.forget(u.Id)
		return nil
	}
	a.users.put(&u)
	return nil
}

// remarshal decodes an event's data value, JSON text or an already decoded object, into v.
func remarshal(raw any, v any) error {
	b, ok := raw.(string)
	if !ok {
		enc, err := json.Marshal(raw)
		if err != nil {
			return err
		}
		b = string(enc)
	}
	return json.Unmarshal([]byte(b), v)
}
