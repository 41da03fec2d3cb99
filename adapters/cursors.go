package adapters

import (
	"context"
	"time"
)

// Cursors keeps how far an adapter has read each channel, so the next process (after a restart
// or a failover) catches up from there. A cursor is a time on the platform's clock: everything
// in the channel up to it has been delivered to the engine. Several replicas may share one
// store. Calls may come from several goroutines.
type Cursors interface {
	// Cursor returns the channel's cursor; ok is false when none was ever set.
	Cursor(ctx context.Context, platform, channel string) (at time.Time, ok bool, err error)
	// SetCursor moves the channel's cursor to at. Adapters never move a cursor back, but a
	// replica that lost the lead may still write briefly after the new leader, so an
	// implementation shared by replicas should keep the later of the stored time and at.
	SetCursor(ctx context.Context, platform, channel string, at time.Time) error
}
