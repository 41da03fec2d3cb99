package mattermost

import (
	"errors"
	"fmt"
	"sync"
)

// link is the state of the connection to the platform, for Connected: up, or why not. Run
// moves it; Connected reads it from any goroutine.
type link struct {
	mu      sync.Mutex
	up      bool
	ever    bool  // up at least once since Run started
	stopped bool  // Run has returned
	why     error // the last failure, while not up
}

// start is called when Run starts: connecting, for the first time.
func (l *link) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.ever, l.stopped, l.why = false, false, false, nil
}

// connected records that the platform greeted the bot.
func (l *link) connected() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.ever, l.why = true, true, nil
}

// lost records that the connection, or an attempt to make it, failed with why.
func (l *link) lost(why error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.why = false, why
}

// stop records that Run has returned.
func (l *link) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.up, l.stopped = false, true
}

// err is nil while the connection is up, and otherwise says why not.
func (l *link) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	state := "reconnecting"
	switch {
	case l.up:
		return nil
	case l.stopped:
		return errNotRunning
	case !l.ever:
		state = "connecting"
	}
	if l.why == nil {
		return errors.New(state)
	}
	return fmt.Errorf("%s: %w", state, l.why)
}

// errNotRunning is Connected's answer before Run has started and after it has returned.
var errNotRunning = errors.New("not running")

// Connected is nil while the websocket is up and the server has greeted the bot (hello, sent
// once the token is accepted). Otherwise it says why not: "connecting" until the first
// connection, "reconnecting: websocket closed: …" while Run waits to reconnect.
func (a *Adapter) Connected() error { return a.link.err() }
