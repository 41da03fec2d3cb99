package adapters

import (
	"testing"
	"time"
)

func TestBackoffDelay(t *testing.T) {
	s := time.Second
	tests := []struct {
		name    string
		rand    float64
		attempt int
		want    time.Duration
	}{
		{"first attempt waits min", 0, 0, s},
		{"doubles", 0, 1, 2 * s},
		{"doubles again", 0, 3, 8 * s},
		{"capped at max", 0, 5, 30 * s},
		{"stays capped", 0, 60, 30 * s},
		{"jitter takes off up to half", 0.5, 2, 3 * s},
		{"jitter takes off less than half", 0.75, 0, 625 * time.Millisecond},
		{"jitter on the cap", 0.5, 10, 22500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := Backoff{Min: s, Max: 30 * s}
			b.Rand = func() float64 { return tt.rand }
			if got := b.Delay(tt.attempt); got != tt.want {
				t.Errorf("delay(%d) with rand %v = %s, want %s", tt.attempt, tt.rand, got, tt.want)
			}
		})
	}
}
