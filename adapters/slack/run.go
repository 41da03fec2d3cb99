package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// Run connects over Socket Mode, delivers events to h until ctx ends, and reconnects whenever
// the socket drops: at once after a connection that was up, then with jittered exponential
// backoff while attempts fail. It returns nil when ctx is cancelled, and an error only for a
// configuration mistake no reconnection can fix (a refused token).
//
// Every envelope is acknowledged before its event is handled, so Slack does not redeliver it.
// Events are delivered one at a time, in the order Slack sent them, so that a reaction's removal
// never overtakes its addition; h should hand long work to its own goroutines.
func (a *Adapter) Run(ctx context.Context, h adapters.Handler) error {
	if h == nil {
		return errors.New("slack: Run needs a Handler")
	}
	return adapters.Reconnect{Link: &a.link, Backoff: a.backoff, Log: a.log, Down: "socket mode", Pause: a.pause}.
		Run(ctx, func(ctx context.Context) (bool, error) { return a.session(ctx, h) })
}

// session runs one Socket Mode client until a connection attempt fails or ctx ends. The client
// reopens a dropped connection by itself; the first failure to reconnect ends the session, so
// that Run's backoff, not the library's, paces the retries. connected reports whether any
// connection was made.
func (a *Adapter) session(ctx context.Context, h adapters.Handler) (connected bool, err error) {
	self, err := a.whoami(ctx)
	if err != nil {
		return false, err
	}
	client := socketmode.New(a.api)
	sessCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- client.RunContext(sessCtx) }()

	for {
		select {
		case <-ctx.Done():
			<-done
			return connected, ctx.Err()
		case err := <-done:
			return connected, a.runError(err)
		case ev := <-client.Events:
			switch ev.Type {
			case socketmode.EventTypeConnected:
				connected = true
				a.log.Info("connected", "bot", self.name)
			case socketmode.EventTypeHello:
				a.link.Connected()
			case socketmode.EventTypeConnecting:
				// The client reopens a dropped socket by itself; this is the first news of it.
				if c, ok := ev.Data.(*slack.ConnectingEvent); ok && c.ConnectionCount > 0 && a.link.Err() == nil {
					a.link.Lost(errSocketClosed)
				}
			case socketmode.EventTypeDisconnect:
				a.link.Lost(errSlackAskedToReconnect)
				a.handle(sessCtx, client, h, self, ev)
			case socketmode.EventTypeConnectionError:
				cancel()
				<-done
				return connected, fmt.Errorf("opening a socket: %w", connectionError(ev))
			case socketmode.EventTypeInvalidAuth:
				cancel()
				<-done
				return connected, &configError{errors.New("the app token was refused")}
			case socketmode.EventTypeIncomingError, socketmode.EventTypeErrorWriteFailed:
				a.log.Warn("socket mode problem", "event", string(ev.Type), "err", ev.Data)
			default:
				a.handle(sessCtx, client, h, self, ev)
			}
		}
	}
}

var (
	errSocketClosed          = errors.New("the socket mode connection closed")
	errSlackAskedToReconnect = errors.New("Slack asked the app to reconnect")
)

// runError classifies what socketmode's RunContext returned.
func (a *Adapter) runError(err error) error {
	switch {
	case err == nil:
		return errors.New("socket mode client stopped")
	case isAuthError(err):
		return &configError{fmt.Errorf("the app token was refused: %w", err)}
	}
	var code slack.StatusCodeError
	if errors.As(err, &code) && code.Code == http.StatusNotFound {
		return &configError{fmt.Errorf("the app token was refused: %w", err)}
	}
	return err
}

func connectionError(ev socketmode.Event) error {
	if ce, ok := ev.Data.(*slack.ConnectionErrorEvent); ok && ce.ErrorObj != nil {
		return ce.ErrorObj
	}
	return errors.New("connection failed")
}

// handle acknowledges ev's envelope, if it has one, then delivers what it carries.
func (a *Adapter) handle(ctx context.Context, client *socketmode.Client, h adapters.Handler, self *identity, ev socketmode.Event) {
	envelope := ""
	if ev.Request != nil {
		envelope = ev.Request.EnvelopeID
	}
	if bad, ok := ev.Data.(*socketmode.ErrorBadMessage); ok {
		// An envelope the library could not parse is still acknowledged, or Slack resends it.
		var req struct {
			EnvelopeID string `json:"envelope_id"`
		}
		if json.Unmarshal(bad.Message, &req) == nil {
			envelope = req.EnvelopeID
		}
		a.log.Warn("ignoring a message Slack sent that could not be read", "envelope", envelope, "err", bad.Cause)
	}
	if envelope != "" {
		if err := client.AckCtx(ctx, envelope, nil); err != nil {
			a.log.Warn("acknowledging envelope", "envelope", envelope, "err", err)
		}
	}
	if ev.Type != socketmode.EventTypeEventsAPI {
		return
	}
	api, ok := ev.Data.(slackevents.EventsAPIEvent)
	if !ok {
		return
	}
	if err := a.dispatch(ctx, h, self, api.InnerEvent.Data); err != nil {
		a.log.Error("dropping event", "event", api.InnerEvent.Type, "envelope", envelope, "err", err)
	}
}
