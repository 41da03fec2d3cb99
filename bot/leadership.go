package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/eosbot/eos/adapters"
)

// Leadership tells the engine whether this process may act, when several Eos replicas share
// a store (cmd/eos wires package leader). The engine asks before every message, reaction, run,
// digest and post, so a leader that was paused and woke up after another took over does
// nothing, even before its first write is refused by the store's fencing.
type Leadership interface {
	// Role is "leader" or "standby", for /healthz and the eos_leader metric.
	Role() string
	// Valid is nil while this process leads, and says why not otherwise.
	Valid() error
}

// claimRetention is how long message claims are kept: longer than any catch-up looks back.
const claimRetention = 7 * 24 * time.Hour

// leading is nil when this process may act: always without replicas.
func (e *Engine) leading() error {
	if e.cfg.Leader == nil {
		return nil
	}
	if err := e.cfg.Leader.Valid(); err != nil {
		return fmt.Errorf("not the leader: %w", err)
	}
	return nil
}

// mayAct reports whether an event may be handled, logging why not.
func (e *Engine) mayAct(what string, a adapters.Adapter, post adapters.PostRef) bool {
	if err := e.leading(); err != nil {
		e.log.Warn("ignoring "+what+": this Eos does not lead", "platform", a.Name(), "post", post.ID, "err", err)
		return false
	}
	return true
}

// firstDelivery claims m for this process when replicas share the store: a message delivered
// again (live to a leader that died, then in its successor's catch-up) is answered once.
func (e *Engine) firstDelivery(ctx context.Context, a adapters.Adapter, m adapters.Message) bool {
	if e.cfg.Leader == nil {
		return true
	}
	first, err := e.st.ClaimMessage(ctx, a.Name(), m.Post.Channel, m.Post.ID, m.At, e.now())
	switch {
	case err != nil:
		e.log.Error("not answering: claiming the message failed", "platform", a.Name(), "post", m.Post.ID, "err", err)
		return false
	case !first:
		e.log.Info("not answering a message answered already", "platform", a.Name(), "post", m.Post.ID)
		return false
	}
	return true
}
