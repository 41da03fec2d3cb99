package mattermost

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
)

// cursors keeps the channels' catch-up cursors in Config.Cursors. A channel's stored cursor
// is read once, by the first catch-up that reads the channel, before this process delivers
// anything from it; the cursor then moves forward (never back) as the channel's posts and
// reactions are delivered. Times are the server's, in milliseconds. A nil *cursors keeps
// nothing: every catch-up starts where the caller says (Config.Cursors unset).
type cursors struct {
	store adapters.Cursors
	max   time.Duration // Config.CatchUpMax
	log   *slog.Logger

	mu   sync.Mutex
	at   map[string]int64 // the cursor as last read or saved; 0 when none is stored
	from map[string]int64 // where a channel's first catch-up starts, until one has read it
	done map[string]bool  // channels whose first catch-up has read the server
}

func newCursors(store adapters.Cursors, maxAge time.Duration, log *slog.Logger) *cursors {
	return &cursors{store: store, max: maxAge, log: log,
		at: map[string]int64{}, from: map[string]int64{}, done: map[string]bool{}}
}

// start returns where a catch-up of channel starts. The channel's first catch-up starts at its
// stored cursor less catchUpMargin, but no further back than CatchUpMax; any later one, or a
// first one without a stored cursor, starts at fallback.
func (c *cursors) start(ctx context.Context, channel string, fallback int64) int64 {
	if c == nil {
		return fallback
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done[channel] {
		return fallback
	}
	if since, ok := c.from[channel]; ok {
		return since
	}
	since := fallback
	at, err := c.load(ctx, channel)
	switch {
	case err != nil:
		c.log.Warn("catching up from the start of Run: the channel's cursor is unreadable", "channel", channel, "err", err)
	case at != 0:
		since = at - catchUpMargin.Milliseconds()
		if floor := time.Now().Add(-c.max).UnixMilli(); since < floor {
			c.log.Warn("catch-up cut at CatchUpMax: older posts and reactions are not delivered",
				"channel", channel, "cursor", time.UnixMilli(at), "from", time.UnixMilli(floor), "catch_up_max", c.max)
			since = floor
		}
	}
	c.from[channel] = since
	return since
}

// caughtUp records that a catch-up has read channel from the server, so later catch-ups start
// where the caller says.
func (c *cursors) caughtUp(channel string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done[channel] = true
	delete(c.from, channel)
}

// advance moves channel's cursor to at when at is later, and saves it. A failure to read or
// save is logged; the next advance tries again.
func (c *cursors) advance(ctx context.Context, channel string, at int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, known := c.at[channel]
	if !known {
		var err error
		if cur, err = c.load(ctx, channel); err != nil {
			c.log.Warn("cursor not moved: unreadable", "channel", channel, "err", err)
			return
		}
	}
	if at <= cur {
		return
	}
	if err := c.store.SetCursor(ctx, platform, channel, time.UnixMilli(at)); err != nil {
		c.log.Warn("cursor not saved", "channel", channel, "at", time.UnixMilli(at), "err", err)
		return
	}
	c.at[channel] = at
}

// load reads channel's stored cursor (0 when there is none) and remembers it. c.mu is held.
func (c *cursors) load(ctx context.Context, channel string) (int64, error) {
	t, ok, err := c.store.Cursor(ctx, platform, channel)
	if err != nil {
		return 0, err
	}
	var at int64
	if ok {
		at = t.UnixMilli()
	}
	c.at[channel] = at
	return at, nil
}

// advance moves the cursor of channel, if the bot serves it, to at: a post or reaction from it
// has been delivered, or found not to be for the bot.
func (a *Adapter) advance(ctx context.Context, channel string, at int64) {
	if a.cursors == nil || !a.serves(channel) {
		return
	}
	a.cursors.advance(ctx, channel, at)
}
