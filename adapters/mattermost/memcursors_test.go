package mattermost

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

// memCursors is an in-memory adapters.Cursors that records every SetCursor, as the store of
// bot/store would keep them. It keeps what it is given: it does not itself refuse to move a
// cursor back, so the tests see what the adapter writes.
type memCursors struct {
	mu     sync.Mutex
	at     map[string]time.Time // by channel
	sets   []int64              // every SetCursor's time (ms), in order
	setErr error                // when set, SetCursor fails with it
	// changed gets a value, if it has room, after each successful SetCursor.
	changed chan struct{}
}

var _ adapters.Cursors = (*memCursors)(nil)

func newMemCursors() *memCursors {
	return &memCursors{at: map[string]time.Time{}, changed: make(chan struct{}, 1)}
}

func (m *memCursors) Cursor(_ context.Context, platform, channel string) (time.Time, bool, error) {
	if platform != "mattermost" {
		return time.Time{}, false, fmt.Errorf("asked for platform %q", platform)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.at[channel]
	return at, ok, nil
}

func (m *memCursors) SetCursor(_ context.Context, platform, channel string, at time.Time) error {
	if platform != "mattermost" {
		return fmt.Errorf("set for platform %q", platform)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.setErr != nil {
		return m.setErr
	}
	m.at[channel] = at
	m.sets = append(m.sets, at.UnixMilli())
	select {
	case m.changed <- struct{}{}:
	default:
	}
	return nil
}

func (m *memCursors) set(channel string, at int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.at[channel] = time.UnixMilli(at)
}

// get returns channel's cursor in ms, 0 when none is stored.
func (m *memCursors) get(channel string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if at, ok := m.at[channel]; ok {
		return at.UnixMilli()
	}
	return 0
}

func (m *memCursors) saved() []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]int64(nil), m.sets...)
}

// wait waits until channel's cursor is want (ms), and fails the test after waitFor.
func (m *memCursors) wait(t *testing.T, channel string, want int64) {
	t.Helper()
	deadline := time.After(waitFor)
	for m.get(channel) != want {
		select {
		case <-m.changed:
		case <-deadline:
			t.Fatalf("cursor of %s is %d, want %d (within %s)", channel, m.get(channel), want, waitFor)
		}
	}
}
