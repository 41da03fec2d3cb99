package mattermost

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/gorilla/websocket"
	"github.com/mattermost/mattermost/server/public/model"
)

// handshakeTimeout bounds the websocket dial.
const handshakeTimeout = 15 * time.Second

// Run connects, delivers events to h until ctx ends, and reconnects with jittered exponential
// backoff whenever the connection drops. It returns nil when ctx is cancelled, and an error
// only for a configuration mistake no reconnection can fix (a refused token, an unknown
// channel).
//
// Events are delivered one at a time, in the order the server sent them, so that a reaction's
// removal never overtakes its addition; h should hand long work to its own goroutines.
func (a *Adapter) Run(ctx context.Context, h adapters.Handler) error {
	if h == nil {
		return errors.New("mattermost: Run needs a Handler")
	}
	// The first catch-up starts here: a post written while the first connection is still
	// being made is delivered once it is up.
	a.mu.Lock()
	a.lastSeen = max(a.lastSeen, time.Now().UnixMilli())
	a.mu.Unlock()
	return adapters.Reconnect{Link: &a.link, Backoff: a.backoff, Log: a.log, Down: "websocket", Pause: a.pause}.
		Run(ctx, func(ctx context.Context) (bool, error) { return a.session(ctx, h) })
}

// session runs one websocket connection until it drops or ctx ends. connected reports whether
// the server greeted the bot (so the backoff starts over).
func (a *Adapter) session(ctx context.Context, h adapters.Handler) (connected bool, err error) {
	self, err := a.identity(ctx)
	if err != nil {
		return false, err
	}
	if err := a.ensureServed(ctx); err != nil {
		return false, err
	}
	dialer := &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: handshakeTimeout,
		// The client library dials without a context; this one makes cancelling Run end a dial.
		NetDialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}
	ws, err := model.NewWebSocketClient4WithDialer(dialer, a.wsURL, a.cfg.Token)
	if err != nil {
		return false, fmt.Errorf("opening the websocket: %w", err)
	}
	ws.Listen()
	a.setSocket(ws)
	defer func() {
		a.setSocket(nil)
		ws.Close()
		go drain(ws)
	}()

	responses := ws.ResponseChannel
	for {
		select {
		case <-ctx.Done():
			return connected, ctx.Err()
		case <-ws.PingTimeoutChannel:
			return connected, errors.New("the server stopped sending pings")
		case _, ok := <-responses:
			if !ok {
				responses = nil
			}
		case ev, ok := <-ws.EventChannel:
			if !ok {
				if ws.ListenError != nil {
					return connected, fmt.Errorf("websocket closed: %w", ws.ListenError)
				}
				return connected, errors.New("websocket closed by the server")
			}
			if ev.EventType() == model.WebsocketEventHello {
				a.log.Info("connected", "url", a.cfg.URL, "bot", self.Username)
				if connected {
					continue
				}
				connected = true
				a.link.Connected()
				a.users.reset()
				a.catchUp(ctx, h, self)
				a.mu.Lock()
				// Catch-ups start from here at the latest, even if no post is heard meanwhile.
				a.lastSeen = max(a.lastSeen, time.Now().UnixMilli())
				a.mu.Unlock()
				if a.onConnect != nil {
					a.onConnect()
				}
				continue
			}
			a.dispatch(ctx, h, self, ev)
		}
	}
}

// ensureServed resolves Config.Channels once.
func (a *Adapter) ensureServed(ctx context.Context) error {
	if len(a.cfg.Channels) == 0 {
		return nil
	}
	a.mu.Lock()
	done := a.served != nil
	a.mu.Unlock()
	if done {
		return nil
	}
	served, err := a.resolveChannels(ctx)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.served = served
	a.mu.Unlock()
	return nil
}

func (a *Adapter) setSocket(ws *model.WebSocketClient) {
	a.wsMu.Lock()
	a.ws = ws
	a.wsMu.Unlock()
}

// dropConnection closes the live websocket as a network failure would (tests only). It
// reports whether there was one.
func (a *Adapter) dropConnection() bool {
	a.wsMu.Lock()
	defer a.wsMu.Unlock()
	if a.ws == nil {
		return false
	}
	a.ws.Conn.Close()
	return true
}

// drain empties a closed client's channels so its reader goroutine can finish.
func drain(ws *model.WebSocketClient) {
	events, responses := ws.EventChannel, ws.ResponseChannel
	for events != nil || responses != nil {
		select {
		case _, ok := <-events:
			if !ok {
				events = nil
			}
		case _, ok := <-responses:
			if !ok {
				responses = nil
			}
		}
	}
}
