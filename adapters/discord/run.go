package discord

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
	"github.com/gorilla/websocket"
)

const (
	// handshakeTimeout bounds the websocket dial.
	handshakeTimeout = 15 * time.Second
	// minBackoff and maxBackoff bound the delay between failed connection attempts.
	minBackoff, maxBackoff = time.Second, 30 * time.Second
	// queueSize is how many gateway events wait for delivery before the gateway reader waits.
	queueSize = 64
)

// Run connects to the gateway, delivers events to h until ctx ends, and reconnects whenever
// the connection drops. A reconnection resumes the gateway session (discordgo sends RESUME with
// the last sequence number it saw), so Discord replays what was dispatched meanwhile: an
// approval given while the socket was down still arrives. When Discord refuses the resume, a
// new session is identified and events of the gap are lost; the engine reads the reactions
// of pending plans on start-up only.
//
// Run returns nil when ctx is cancelled, and an error only for a mistake no reconnection can
// fix (a refused token). Events are delivered one at a time, in the order Discord sent them,
// so a reaction's removal never overtakes its addition; h should hand long work to its own
// goroutines.
func (a *Adapter) Run(ctx context.Context, h adapters.Handler) error {
	if h == nil {
		return errors.New("discord: Run needs a Handler")
	}
	events := make(chan any, queueSize)
	down := make(chan struct{}, 1)
	push := func(ev any) {
		select {
		case events <- ev:
		case <-ctx.Done():
		}
	}
	for _, remove := range []func(){
		a.s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageCreate) { push(m) }),
		a.s.AddHandler(func(_ *discordgo.Session, r *discordgo.MessageReactionAdd) { push(r) }),
		a.s.AddHandler(func(_ *discordgo.Session, r *discordgo.MessageReactionRemove) { push(r) }),
		a.s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageUpdate) { push(m) }),
		a.s.AddHandler(func(_ *discordgo.Session, m *discordgo.MessageDelete) { push(m) }),
		a.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) {
			a.link.Lost(errGatewayLost)
			select {
			case down <- struct{}{}:
			default:
			}
		}),
	} {
		defer remove()
	}
	a.s.Dialer = &websocket.Dialer{
		Proxy:            http.ProxyFromEnvironment,
		HandshakeTimeout: handshakeTimeout,
		// discordgo dials without a context; this one makes cancelling Run end a dial.
		NetDialContext: func(_ context.Context, network, addr string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		},
	}

	return adapters.Reconnect{Link: &a.link, Backoff: adapters.Backoff{Min: minBackoff, Max: maxBackoff}, AtOnce: true, Log: a.log, Down: "gateway"}.
		Run(ctx, func(ctx context.Context) (bool, error) {
			self, err := a.connect(ctx)
			if err != nil {
				return false, err
			}
			// Open returns once Discord answered with READY or RESUMED, or when the session
			// was already open again (ErrWSAlreadyOpen).
			a.link.Connected()
			a.log.Info("connected to the gateway", "bot", self.Username)
			err = a.serve(ctx, h, self, events, down)
			if ctx.Err() != nil {
				a.close()
			}
			return true, err
		})
}

// connect learns who the bot is and opens (or resumes) the gateway session.
func (a *Adapter) connect(ctx context.Context) (*discordgo.User, error) {
	self, err := a.identity(ctx)
	if err != nil {
		return nil, err
	}
	// A second Disconnect from discordgo (reader and heartbeat both noticing) can report a
	// connection that is already open again; ErrWSAlreadyOpen says so.
	if err := a.s.Open(); err != nil && !errors.Is(err, discordgo.ErrWSAlreadyOpen) {
		return nil, fmt.Errorf("opening the gateway: %w", err)
	}
	return self, nil
}

// close ends the gateway connection (discordgo waits a second for Discord to close it).
func (a *Adapter) close() {
	if err := a.s.Close(); err != nil {
		a.log.Warn("closing the gateway connection", "err", err)
	}
}

// serve delivers events until the connection drops (an error) or ctx ends (nil).
func (a *Adapter) serve(ctx context.Context, h adapters.Handler, self *discordgo.User, events <-chan any, down <-chan struct{}) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-down:
			return errGatewayLost
		case ev := <-events:
			a.dispatch(ctx, h, self, ev)
		}
	}
}

// errGatewayLost is why the adapter is down after discordgo reported a Disconnect.
var errGatewayLost = errors.New("the gateway connection was lost")
