package adapters

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"
)

type refused struct{}

func (refused) Error() string   { return "the token was refused" }
func (refused) Permanent() bool { return true }

// The loop waits the backoff between failed attempts, starts over after a session that
// connected (at once with AtOnce), and returns a permanent error instead of retrying.
func TestReconnectPacesAttemptsAndStopsAtAPermanentError(t *testing.T) {
	for _, tc := range []struct {
		atOnce bool
		want   []time.Duration
	}{
		{false, []time.Duration{1, 2, 4, 1, 2}},
		{true, []time.Duration{0, 1, 2, 0, 1}},
	} {
		var link Link
		var waits []time.Duration
		sessions := []struct {
			connected bool
			err       error
		}{{true, errors.New("dropped")}, {false, errors.New("refused")}, {false, errors.New("refused")},
			{true, errors.New("dropped")}, {false, errors.New("refused")}, {false, refused{}}}
		n := 0
		err := Reconnect{Link: &link, Backoff: Backoff{Min: 1, Max: 8, Rand: func() float64 { return 0 }}, AtOnce: tc.atOnce,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Down: "test",
			Pause: func(_ context.Context, d time.Duration) bool { waits = append(waits, d); return true },
		}.Run(context.Background(), func(context.Context) (bool, error) {
			s := sessions[n]
			n++
			return s.connected, s.err
		})
		if !errors.Is(err, refused{}) || n != len(sessions) {
			t.Fatalf("atOnce=%v: Run = %v after %d sessions, want the permanent error after %d", tc.atOnce, err, n, len(sessions))
		}
		if len(waits) != len(tc.want) {
			t.Fatalf("atOnce=%v: waits %v, want %v", tc.atOnce, waits, tc.want)
		}
		for i := range waits {
			if waits[i] != tc.want[i] {
				t.Errorf("atOnce=%v: waits %v, want %v", tc.atOnce, waits, tc.want)
				break
			}
		}
		if !errors.Is(link.Err(), ErrNotRunning) {
			t.Errorf("link after Run: %v, want not running", link.Err())
		}
	}
}

// Cancelling the context ends the loop with nil, whatever the session said.
func TestReconnectEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var link Link
	err := Reconnect{Link: &link, Backoff: Backoff{Min: time.Hour, Max: time.Hour}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}.
		Run(ctx, func(context.Context) (bool, error) { cancel(); return true, errors.New("dropped") })
	if err != nil {
		t.Fatalf("Run = %v, want nil once ctx ended", err)
	}
}
