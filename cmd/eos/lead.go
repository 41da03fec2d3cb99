package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/leader"
)

// leadership is the bot's view of the election: the elector's role, and whether the current
// term (if any) still holds. It implements bot.Leadership.
type leadership struct {
	el   *leader.Elector
	term atomic.Pointer[leader.Term]
}

func (l *leadership) Role() string { return l.el.Role() }

func (l *leadership) Valid() error {
	t := l.term.Load()
	if t == nil {
		return errors.New("standing by: another Eos leads")
	}
	return t.Valid()
}

// newLeadership makes the elector of a replicated Eos from leader { … }.
func newLeadership(cfg *Config, log *slog.Logger) (*leadership, error) {
	lc := leader.Config{DSN: cfg.Store.DSN, Logger: log.With("component", "leader")}
	if c := cfg.Leader; c != nil {
		for _, d := range []struct {
			name string
			text string
			dst  *time.Duration
		}{{"retry", c.Retry, &lc.Retry}, {"heartbeat", c.Heartbeat, &lc.Heartbeat}, {"lease", c.Lease, &lc.Lease}} {
			if d.text == "" {
				continue
			}
			v, err := time.ParseDuration(d.text)
			if err != nil {
				return nil, fmt.Errorf("leader %s %q: %w", d.name, d.text, err)
			}
			*d.dst = v
		}
	}
	el, err := leader.New(lc)
	if err != nil {
		return nil, err
	}
	return &leadership{el: el}, nil
}

// stepDownGrace is how long a replica that lost its leadership waits for its engine to stop
// before it exits anyway.
const stepDownGrace = 10 * time.Second

// serveReplica runs a replica: it stands by until it wins the election, raises the store's epoch,
// then serves (the same catch-up as after a restart, then the adapters) until ctx ends or
// leadership is lost. A replica that lost its leadership returns an error saying why, and
// the process exits: its supervisor (Nomad, systemd) starts it again as a standby, with
// nothing left over from the term it lost.
func (a *app) serveReplica(ctx context.Context, as ...adapters.Adapter) error {
	l := a.leader
	// A standby serves the status page too (from the shared store): its adapters are known to
	// the engine, not run, so the page can ask the platforms who may see which channel.
	for _, ad := range as {
		a.engine.Attach(ad)
	}
	a.log.Info("standing by: waiting to lead", "store", a.store.Kind())
	term, err := l.el.Campaign(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	defer term.Resign()
	epoch, err := a.store.Lead(ctx)
	if err != nil {
		return fmt.Errorf("taking over: %w", err)
	}
	l.term.Store(term)
	lctx, lost := context.WithCancelCause(ctx)
	defer lost(nil)
	a.store.OnFenced(func(err error) { lost(err) })
	go func() {
		select {
		case <-term.Done():
			lost(term.Err())
		case <-lctx.Done():
		}
	}()
	a.log.Info("leading: catching up, then serving", "epoch", epoch)
	done := make(chan error, 1)
	go func() { done <- a.run(lctx, as...) }()
	select {
	case err := <-done:
		if cause := context.Cause(lctx); ctx.Err() == nil && cause != nil && !errors.Is(cause, context.Canceled) {
			return stepDown(a, epoch, cause)
		}
		return err
	case <-lctx.Done():
	}
	if ctx.Err() != nil { // an ordinary shutdown
		return <-done
	}
	cause := context.Cause(lctx)
	a.engine.Abandon() // its runs' writes are refused anyway: stop them now
	select {
	case <-done:
	case <-time.After(stepDownGrace):
		a.log.Warn("the engine did not stop in time; exiting anyway", "grace", stepDownGrace)
	}
	return stepDown(a, epoch, cause)
}

func stepDown(a *app, epoch uint64, cause error) error {
	a.log.Error("stepped down: this Eos no longer leads; exiting so that it restarts as a standby", "epoch", epoch, "why", cause)
	return fmt.Errorf("stepped down from leadership epoch %d: %w", epoch, cause)
}
