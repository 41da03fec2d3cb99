package render

import (
	"testing"
	"time"
)

// A run's post and history say the same duration: both round to the second (history used to
// cut 9.6 s to "9 s" where the post said "10 s").
func TestRunPostAndHistorySayTheSameDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		9600 * time.Millisecond:   "10 s",
		9400 * time.Millisecond:   "9 s",
		125400 * time.Millisecond: "2m5s",
	} {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%s) = %q, want %q", d, got, want)
		}
	}
}
