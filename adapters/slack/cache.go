package slack

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// bounded is a map that keeps its newest entries: when full, a put evicts the oldest key.
type bounded[V any] struct {
	mu   sync.Mutex
	m    map[string]V
	ring []string
	next int
}

func newBounded[V any](size int) *bounded[V] {
	return &bounded[V]{m: make(map[string]V, size), ring: make([]string, size)}
}

func (b *bounded[V]) get(k string) (V, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[k]
	return v, ok
}

// put stores v under k and reports whether k was new.
func (b *bounded[V]) put(k string, v V) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.m[k]; ok {
		b.m[k] = v
		return false
	}
	if old := b.ring[b.next]; old != "" {
		delete(b.m, old)
	}
	b.ring[b.next] = k
	b.next = (b.next + 1) % len(b.ring)
	b.m[k] = v
	return true
}

// user returns the user with id, asking Slack (users.info) on a cache miss.
func (a *Adapter) user(ctx context.Context, id string) (adapters.User, error) {
	if u, ok := a.users.get(id); ok {
		return u, nil
	}
	su, err := a.api.GetUserInfoContext(ctx, id)
	if err != nil {
		return adapters.User{}, fmt.Errorf("looking up user %s: %w", id, err)
	}
	u := slackUser(*su)
	a.noteUser(u)
	return u, nil
}

// served is Config.Channels split into ids and names; an empty one serves every channel.
type served struct {
	ids, names map[string]bool
}

func newServed(channels []string) served {
	s := served{ids: map[string]bool{}, names: map[string]bool{}}
	for _, c := range channels {
		c = strings.TrimSpace(c)
		switch {
		case c == "":
		case isChannelID(c):
			s.ids[c] = true
		default:
			s.names[strings.ToLower(strings.TrimPrefix(c, "#"))] = true
		}
	}
	return s
}

// isChannelID reports whether s looks like a Slack conversation id: C (channel), G (private
// channel or group DM) or D (direct message) followed by upper-case letters and digits.
func isChannelID(s string) bool {
	if len(s) < 9 || !strings.ContainsRune("CGD", rune(s[0])) {
		return false
	}
	for _, r := range s[1:] {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// serves reports whether the bot listens in channel. Channels configured by name are matched by
// asking Slack for the channel's name (conversations.info) once per channel.
func (a *Adapter) serves(ctx context.Context, channel string) (bool, error) {
	s := a.served
	if len(s.ids) == 0 && len(s.names) == 0 {
		return true, nil
	}
	if s.ids[channel] {
		return true, nil
	}
	if len(s.names) == 0 || strings.HasPrefix(channel, "D") {
		return false, nil
	}
	name, ok := a.names.get(channel)
	if !ok {
		ch, err := a.api.GetConversationInfoContext(ctx, &slack.GetConversationInfoInput{ChannelID: channel})
		if err != nil {
			return false, fmt.Errorf("looking up channel %s: %w", channel, err)
		}
		name = ch.Name
		a.names.put(channel, name)
	}
	return s.names[strings.ToLower(name)], nil
}
