package discord

import (
	"context"
	"fmt"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// cacheSize bounds each cache; when full it starts over (names and channel kinds rarely
// change, and a miss costs one REST call).
const cacheSize = 1024

// userCache maps user ids to adapters.User, so each author or reactor is looked up once.
type userCache struct {
	mu sync.Mutex
	m  map[string]adapters.User
}

func newUserCache() *userCache { return &userCache{m: make(map[string]adapters.User)} }

func (c *userCache) put(u *discordgo.User) adapters.User {
	au := adapters.User{ID: u.ID, Name: u.Username, Bot: u.Bot}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cacheSize {
		clear(c.m)
	}
	c.m[u.ID] = au
	return au
}

func (c *userCache) get(id string) (adapters.User, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.m[id]
	return u, ok
}

// user returns the user with id, asking Discord on a cache miss.
func (a *Adapter) user(ctx context.Context, id string) (adapters.User, error) {
	if u, ok := a.users.get(id); ok {
		return u, nil
	}
	du, err := a.s.User(id, discordgo.WithContext(ctx))
	if err != nil {
		return adapters.User{}, fmt.Errorf("looking up user %s: %w", id, err)
	}
	return a.users.put(du), nil
}

// channelInfo is what the adapter needs to know about a channel.
type channelInfo struct {
	kind   discordgo.ChannelType
	parent string // for a thread, the channel it belongs to
}

func (c channelInfo) thread() bool {
	switch c.kind {
	case discordgo.ChannelTypeGuildPublicThread, discordgo.ChannelTypeGuildPrivateThread,
		discordgo.ChannelTypeGuildNewsThread:
		return true
	}
	return false
}

// canThread reports whether a thread can be started from a message in the channel.
func (c channelInfo) canThread() bool {
	return c.kind == discordgo.ChannelTypeGuildText || c.kind == discordgo.ChannelTypeGuildNews
}

// channelCache maps channel ids to their kind.
type channelCache struct {
	mu sync.Mutex
	m  map[string]channelInfo
}

func newChannelCache() *channelCache { return &channelCache{m: make(map[string]channelInfo)} }

func (c *channelCache) put(id string, info channelInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cacheSize {
		clear(c.m)
	}
	c.m[id] = info
}

// channel returns what kind of channel id is, asking Discord on a cache miss.
func (a *Adapter) channel(ctx context.Context, id string) (channelInfo, error) {
	a.channels.mu.Lock()
	info, ok := a.channels.m[id]
	a.channels.mu.Unlock()
	if ok {
		return info, nil
	}
	ch, err := a.s.Channel(id, discordgo.WithContext(ctx))
	if err != nil {
		return channelInfo{}, fmt.Errorf("looking up channel %s: %w", id, err)
	}
	info = channelInfo{kind: ch.Type, parent: ch.ParentID}
	a.channels.put(id, info)
	return info, nil
}
