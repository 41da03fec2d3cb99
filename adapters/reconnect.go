package adapters

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Permanent is implemented by an adapter's errors that no reconnection can fix (a refused
// token, an unknown channel): Reconnect returns them instead of trying again.
type Permanent interface {
	error
	Permanent() bool
}

// Reconnect is the loop every platform adapter's Run goes round: run one session (one
// connection) until it drops, record why on the Link, wait a jittered backoff, and connect
// again, until ctx ends.
type Reconnect struct {
	// Link is the adapter's connection state: Start and Stop around the loop, Lost after each
	// session. The session itself calls Connected when the platform greets the bot.
	Link *Link
	// Backoff paces the attempts; it starts over after a session that connected.
	Backoff Backoff
	// AtOnce reconnects without waiting after a session that connected (the platform resumes
	// the session, so the sooner the better); the backoff then paces failed attempts only.
	AtOnce bool
	// Log receives "<Down> down, reconnecting" for every wait.
	Log  *slog.Logger
	Down string
	// Pause waits between attempts and reports false when ctx ended first; nil means Sleep.
	// Tests hold it to act while the adapter is disconnected.
	Pause func(ctx context.Context, d time.Duration) bool
}

// Run calls session until ctx ends, and returns nil then. It returns a Permanent error from a
// session at once. session reports whether it connected (so the backoff starts over) and why
// it ended.
func (r Reconnect) Run(ctx context.Context, session func(context.Context) (connected bool, err error)) error {
	pause := r.Pause
	if pause == nil {
		pause = Sleep
	}
	r.Link.Start()
	defer r.Link.Stop()
	attempt := 0
	for {
		connected, err := session(ctx)
		if ctx.Err() != nil {
			return nil
		}
		var perm Permanent
		if errors.As(err, &perm) && perm.Permanent() {
			return perm
		}
		r.Link.Lost(err)
		if connected {
			attempt = 0
		}
		d := time.Duration(0)
		switch {
		case r.AtOnce && attempt > 0:
			d = r.Backoff.Delay(attempt - 1)
		case !r.AtOnce:
			d = r.Backoff.Delay(attempt)
		}
		attempt++
		r.Log.Warn(r.Down+" down, reconnecting", "err", err, "attempt", attempt, "in", d)
		if !pause(ctx, d) {
			return nil
		}
	}
}

// Sleep waits for d, reporting false if ctx ended first (at once when it has already ended).
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
