package slack

import (
	"context"
	"time"
)

// sleep waits for d, reporting false if ctx ended first. It is Adapter.pause outside tests.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
