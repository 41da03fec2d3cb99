package mattermost

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// A handle names whoever has it now: after a rename the new name finds the same id and the old
// one finds nobody, even right after the old name was looked up (nothing is cached).
func TestLookupUserFollowsARename(t *testing.T) {
	dave := &model.User{Id: model.NewId(), Username: "dave"}
	gone := &model.User{Id: model.NewId(), Username: "gone", DeleteAt: 1700000000000}
	f := newFakeAPI(botUser, aliceUser, dave, gone)
	a := fakeAdapter(t, f)
	ctx := context.Background()

	for _, handle := range []string{"dave", "@Dave", " dave "} {
		u, err := a.LookupUser(ctx, handle)
		if err != nil || u != (adapters.User{ID: dave.Id, Name: "dave"}) {
			t.Errorf("LookupUser(%q) = %+v, %v; want dave's id", handle, u, err)
		}
	}
	renamed := *dave
	renamed.Username = "david"
	f.users[dave.Id] = &renamed
	if u, err := a.LookupUser(ctx, "david"); err != nil || u.ID != dave.Id || u.Name != "david" {
		t.Errorf("after the rename LookupUser(david) = %+v, %v; want dave's id %s", u, err, dave.Id)
	}
	if u, err := a.LookupUser(ctx, "dave"); !errors.Is(err, adapters.ErrNoSuchUser) {
		t.Errorf("after the rename LookupUser(dave) = %+v, %v; want ErrNoSuchUser", u, err)
	}
	for _, handle := range []string{"gone", "nobody", "@", ""} {
		if u, err := a.LookupUser(ctx, handle); !errors.Is(err, adapters.ErrNoSuchUser) {
			t.Errorf("LookupUser(%q) = %+v, %v; want ErrNoSuchUser", handle, u, err)
		}
	}
	f.usernameErr = errors.New("database is down")
	// Never sent: no username has these characters, and the client does not escape the path.
	for _, handle := range []string{"../teams", "dave?x=1", "dave/patch"} {
		if u, err := a.LookupUser(ctx, handle); !errors.Is(err, adapters.ErrNoSuchUser) {
			t.Errorf("LookupUser(%q) = %+v, %v; want ErrNoSuchUser without asking", handle, u, err)
		}
	}
	if _, err := a.LookupUser(ctx, "david"); err == nil || errors.Is(err, adapters.ErrNoSuchUser) {
		t.Errorf("with the server failing LookupUser = %v; want an error that is not ErrNoSuchUser", err)
	}
}

// The events after a rename carry the new name: the server's user_updated event replaces the
// cached user, and a deactivation drops it.
func TestUserUpdatedEventRefreshesTheName(t *testing.T) {
	dave := &model.User{Id: model.NewId(), Username: "dave"}
	f := newFakeAPI(botUser, dave)
	a := fakeAdapter(t, f)
	ctx := context.Background()
	if u, err := a.user(ctx, dave.Id); err != nil || u.Name != "dave" {
		t.Fatalf("user(dave) = %+v, %v", u, err)
	}
	delete(f.users, dave.Id) // from now on only the event can tell the adapter who dave is

	updated := func(u model.User) *model.WebSocketEvent {
		ev := model.NewWebSocketEvent(model.WebsocketEventUserUpdated, "", "", "", nil, "")
		var obj map[string]any // as the client decodes it: an object, not JSON text
		b, _ := json.Marshal(u)
		if err := json.Unmarshal(b, &obj); err != nil {
			t.Fatal(err)
		}
		return ev.SetData(map[string]any{"user": obj})
	}
	h := &collector{}
	renamed := *dave
	renamed.Username = "david"
	a.dispatch(ctx, h, botUser, updated(renamed))
	if u, err := a.user(ctx, dave.Id); err != nil || u != (adapters.User{ID: dave.Id, Name: "david"}) {
		t.Errorf("after user_updated, user(dave's id) = %+v, %v; want the name david", u, err)
	}
	renamed.DeleteAt = 1700000000000
	a.dispatch(ctx, h, botUser, updated(renamed))
	if u, err := a.user(ctx, dave.Id); err == nil {
		t.Errorf("after a deactivation the cache still answers %+v", u)
	}
	if len(h.msgs)+len(h.reacts) != 0 {
		t.Errorf("user_updated delivered something: %+v %+v", h.msgs, h.reacts)
	}
}
