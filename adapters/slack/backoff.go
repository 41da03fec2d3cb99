package slack

import (
	"context"
	"math/rand/v2"
	"time"
)

// backoff computes the delay before reconnection attempt n (0-based): Min·2ⁿ capped at Max, of
// which a random part (less than half) is taken off so that many bots do not reconnect in step.
type backoff struct {
	min, max time.Duration
	// rand returns a number in [0, 1); tests fix it.
	rand func() float64
}

func newBackoff(lo, hi time.Duration) backoff {
	return backoff{min: lo, max: hi, rand: rand.Float64}
}

func (b backoff) delay(attempt int) time.Duration {
	d := b.min
	for i := 0; i < attempt && d < b.max; i++ {
		d *= 2
	}
	d = min(d, b.max)
	return d - time.Duration(b.rand()*float64(d)/2)
}

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
