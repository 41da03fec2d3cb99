package bot

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

// Who may see what on the status page: the platform decides (adapters.ChannelViewer), and
// its answers are kept for viewCacheTTL so a page listing many plans asks it once per
// channel. A platform that cannot answer, or fails to, means no.

const viewCacheTTL = 30 * time.Second

type viewKey struct{ platform, userID, channel string }

type viewAnswer struct {
	yes bool
	at  time.Time
}

// viewCache holds the platforms' recent answers, by person and channel.
type viewCache struct {
	mu sync.Mutex
	m  map[viewKey]viewAnswer
}

func (c *viewCache) get(k viewKey, now time.Time) (yes, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.m[k]
	if !ok || now.Sub(a.at) >= viewCacheTTL || now.Before(a.at) {
		return false, false
	}
	return a.yes, true
}

func (c *viewCache) put(k viewKey, yes bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[viewKey]viewAnswer{}
	}
	if len(c.m) >= 1024 { // forget the stale answers now and then
		for k, a := range c.m {
			if now.Sub(a.at) >= viewCacheTTL {
				delete(c.m, k)
			}
		}
	}
	c.m[k] = viewAnswer{yes: yes, at: now}
}

// MaySee reports whether person may see the plans and runs asked in channel of platform: the
// person's platform is that platform and it confirms they can read the channel now, or they
// can read one of that platform's ops channels (Config.OpsChannels), which see everything.
// Anything the platform cannot confirm is no.
func (e *Engine) MaySee(ctx context.Context, person store.WebPerson, platform, channel string) bool {
	if person.Platform != platform {
		return false
	}
	cv, ok := e.channelViewer(person)
	if !ok {
		return false
	}
	if e.canView(ctx, cv, person, channel) {
		return true
	}
	for _, oc := range e.cfg.OpsChannels {
		if p, ch, ok := strings.Cut(oc, ":"); ok && p == platform && ch != channel && e.canView(ctx, cv, person, ch) {
			return true
		}
	}
	return false
}

// canView asks the platform, or remembers its answer of the last viewCacheTTL.
func (e *Engine) canView(ctx context.Context, cv adapters.ChannelViewer, person store.WebPerson, channel string) bool {
	k := viewKey{platform: person.Platform, userID: person.UserID, channel: channel}
	now := e.now()
	if yes, ok := e.chat.views.get(k, now); ok {
		return yes
	}
	yes, err := cv.CanView(ctx, adapters.User{ID: person.UserID, Name: person.Name}, channel)
	if err != nil {
		e.log.Debug("asking whether someone may view a channel; counted as no", "platform", person.Platform,
			"user_id", person.UserID, "channel", channel, "err", err)
		return false
	}
	e.chat.views.put(k, yes, now)
	return yes
}

// MaySeeAll reports whether person can read one of their platform's ops channels, which see
// everything: on the status page, the audit entries that name no plan (digests, policy
// changes) are shown only to them.
func (e *Engine) MaySeeAll(ctx context.Context, person store.WebPerson) bool {
	cv, ok := e.channelViewer(person)
	if !ok {
		return false
	}
	for _, oc := range e.cfg.OpsChannels {
		if p, ch, ok := strings.Cut(oc, ":"); ok && p == person.Platform && e.canView(ctx, cv, person, ch) {
			return true
		}
	}
	return false
}

// channelViewer is the platform of person when it can say who reads a channel; no person
// without an ID, and no platform that cannot say.
func (e *Engine) channelViewer(person store.WebPerson) (adapters.ChannelViewer, bool) {
	if person.UserID == "" {
		return nil, false
	}
	a, ok := e.adapter(person.Platform)
	if !ok {
		return nil, false
	}
	cv, ok := a.(adapters.ChannelViewer)
	return cv, ok
}
