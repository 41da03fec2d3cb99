package adapters

import (
	"errors"
	"fmt"
	"sync"
)

// Link is the state of an adapter's connection to its platform, for Connection.Connected: up,
// or why not. The adapter's Run moves it; Connected reads it from any goroutine. The zero value
// reports "connecting".
type Link struct {
	mu      sync.Mutex
	up      bool
	ever    bool  // up at least once since Run started
	stopped bool  // Run has returned
	why     error // the last failure, while not up
}

// Start is called when Run starts: connecting, for the first time.
func (l *Link) Start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.ever, l.stopped, l.why = false, false, false, nil
}

// Connected records that the platform greeted the bot.
func (l *Link) Connected() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.ever, l.why = true, true, nil
}

// Lost records that the connection, or an attempt to make it, failed with why.
func (l *Link) Lost(why error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.why = false, why
}

// Stop records that Run has returned.
func (l *Link) Stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.stopped = false, true
}

// Err is nil while the connection is up, and otherwise says why not.
func (l *Link) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	state := "reconnecting"
	switch {
	case l.up:
		return nil
	case l.stopped:
		return ErrNotRunning
	case !l.ever:
		state = "connecting"
	}
	if l.why == nil {
		return errors.New(state)
	}
	return fmt.Errorf("%s: %w", state, l.why)
}

// ErrNotRunning is Err's answer once Run has returned.
var ErrNotRunning = errors.New("not running")
