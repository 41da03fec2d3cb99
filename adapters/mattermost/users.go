package mattermost

import (
	"context"
	"fmt"
	"sync"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// userCacheSize bounds the user cache; when full it starts over (usernames rarely change, and
// a miss costs one GetUser).
const userCacheSize = 1024

// userCache maps user ids to adapters.User, so each author or reactor is looked up once. The
// approval policy judges people by the id, which never changes; the name is kept current by
// the server's user_updated events and by LookupUser, and the cache starts over on every
// (re)connection, since events missed while disconnected may include a rename.
type userCache struct {
	mu sync.Mutex
	m  map[string]adapters.User
}

func newUserCache() *userCache { return &userCache{m: make(map[string]adapters.User)} }

func (c *userCache) put(u *model.User) adapters.User {
	au := adapters.User{ID: u.Id, Name: u.Username, Bot: u.IsBot}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= userCacheSize {
		clear(c.m)
	}
	c.m[u.Id] = au
	return au
}

// reset empties the cache.
func (c *userCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}

// forget drops the user with id, so the next event asks the server.
func (c *userCache) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// user returns the user with id, asking the server on a cache miss.
func (a *Adapter) user(ctx context.Context, id string) (adapters.User, error) {
	a.users.mu.Lock()
	u, ok := a.users.m[id]
	a.users.mu.Unlock()
	if ok {
		return u, nil
	}
	mu, _, err := a.api.GetUser(ctx, id, "")
	if err != nil {
		return adapters.User{}, fmt.Errorf("looking up user %s: %w", id, err)
	}
	return a.users.put(mu), nil
}

// recentSet remembers the ids of the last posts delivered, so a post heard both on the
// websocket and in a catch-up after reconnecting is delivered once.
type recentSet struct {
	mu   sync.Mutex
	ids  map[string]struct{}
	ring []string
	next int
}

func newRecentSet(size int) *recentSet {
	return &recentSet{ids: make(map[string]struct{}, size), ring: make([]string, size)}
}

// add records id and reports whether it was new.
func (s *recentSet) add(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ids[id]; ok {
		return false
	}
	if old := s.ring[s.next]; old != "" {
		delete(s.ids, old)
	}
	s.ring[s.next] = id
	s.next = (s.next + 1) % len(s.ring)
	s.ids[id] = struct{}{}
	return true
}
