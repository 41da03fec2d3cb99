package bot

import (
	"context"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/queue"
	"github.com/eosbot/eos/bot/runwatch"
)

// The Engine's state, grouped by purpose: each group is one field of Engine.

// approvalPolicy is the approval policy in force, which SetPolicy replaces (judge.go).
type approvalPolicy struct {
	mu     sync.RWMutex
	policy Policy
}

// runBook is the engine's bookkeeping of runs: the context they run in, how many are in
// flight, what follows them, how to stop each and who watches them.
type runBook struct {
	ctx    context.Context // parent of every run; cancelled on shutdown
	cancel context.CancelFunc
	ready  chan struct{} // closed when Run has recovered the previous process's runs and plans, and adapters start
	flight queue.Flight  // runs in flight
	// follow counts the checks of runs whose outcome Eos did not see (unknown.go): they wait
	// for a server, so Wait does not wait for them; shutdown does, after cancelling them.
	follow sync.WaitGroup
	mu     sync.Mutex
	stops  map[string]*runStop // stop switches of runs in flight, by run id; under mu
	watch  *runwatch.Hub       // runs in flight, for status pages watching them
}

// digestBook is the scheduled drift digests, run one at a time (under mu).
type digestBook struct {
	mu    sync.Mutex
	plans []digestPlan
}

// platforms is what the engine keeps about the chat platforms it talks to; mu guards the maps.
type platforms struct {
	mu       sync.Mutex
	adapters map[string]adapters.Adapter // by Name, for posts not caused by an event
	states   map[string]string           // adapter name → running / stopped[: reason]; Health adds the connection
	warned   map[string]bool             // plan/user pairs already told they may not approve
	views    viewCache                   // the platforms' recent answers to "may they view it" (maysee.go); locks itself
}

// now is the engine's clock (Config.Now).
func (e *Engine) now() time.Time { return e.cfg.Now() }

// logFailure logs a failed piece of housekeeping as an error, unless Eos is stopping (ctx
// ended): then the work was cut short on purpose, and the next start does it again.
func (e *Engine) logFailure(ctx context.Context, what string, err error) {
	if ctx.Err() != nil {
		e.log.Debug(what+": cut short, Eos is stopping", "err", err)
		return
	}
	e.log.Error(what, "err", err)
}

// all are the adapters attached, by name.
func (p *platforms) all() []adapters.Adapter {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]adapters.Adapter, 0, len(p.adapters))
	for _, name := range slices.Sorted(maps.Keys(p.adapters)) {
		out = append(out, p.adapters[name])
	}
	return out
}
