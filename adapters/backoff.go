package adapters

import (
	"math/rand/v2"
	"time"
)

// Backoff computes the delay before reconnection attempt n (0-based): Min·2ⁿ capped at Max,
// of which a random part (less than half) is taken off so that many bots do not reconnect in
// step. Every platform adapter reconnects with it.
type Backoff struct {
	Min, Max time.Duration
	// Rand returns a number in [0, 1); nil means math/rand. Tests fix it.
	Rand func() float64
}

// Delay is the wait before attempt n.
func (b Backoff) Delay(attempt int) time.Duration {
	d := b.Min
	for i := 0; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	r := b.Rand
	if r == nil {
		r = rand.Float64
	}
	return d - time.Duration(r()*float64(d)/2)
}
