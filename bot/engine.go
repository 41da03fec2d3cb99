// Package bot is the conversation engine: it routes what people say to Eos (the verb table,
// messages.go, and the reaction table, reactions.go, over the work queue of bot/queue), parses
// requests and has bot/compile compile them, posts plan previews, applies the approval policy
// to reactions, runs approved plans with one progress post, and answers status, history and
// help. Its store (bot/store) keeps everything that must survive a restart.
//
// It never learns which chat platform it talks to: platforms differ only through the optional
// adapters interfaces. docs/ARCHITECTURE.md lists what it may import.
package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/eosbot/eos/bot/runwatch"
	"github.com/eosbot/eos/bot/webapi"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/queue"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
	"github.com/prometheus/client_golang/prometheus"
)

// Config wires an Engine.
type Config struct {
	// Catalog is the validated blueprint catalog.
	Catalog *catalog.Catalog
	// Runner plans and applies specs.
	Runner *executor.Runner
	// Store is the open store (bbolt or PostgreSQL).
	Store *store.Store
	// Policy is the approval policy; zero means DefaultPolicy().
	Policy Policy
	// PolicyCode is the policy as code in force (policy_dirs), nil for none: it judges every
	// plan beside Policy (policyjudge.go). PolicyZone is the time zone its input document
	// gives the time in besides UTC (default UTC).
	PolicyCode *rego.Set
	PolicyZone *time.Location
	// Environments are the environments requests may name, besides DefaultEnv, the
	// environments Policy has a rule for (when set), Variants' and Digests'; empty and
	// without those, only DefaultEnv. A request for another one is refused with the list and
	// a suggestion, unless it still holds services (environments.go).
	Environments []string
	// OpsChannels see and act on the plans and runs of every channel, as "platform:channel-id"
	// ("mattermost:4xp9…", "console:local"); every other channel sees only its own.
	OpsChannels []string
	// Variants names the Terraform variant of each environment ("production" → "production");
	// environments not listed use the blueprints' default variant, "local".
	Variants map[string]string
	// DefaultEnv is the environment when a request names none (default "local").
	DefaultEnv string
	// BotName is the name people mention (default "eos").
	BotName string
	// SecretsPath is where generated secrets live in Vault, with {env}, {service} and {name}
	// placeholders (default "secret/eos/{env}/{service}, key {name}": one entry per service,
	// one key per secret).
	SecretsPath string
	// Digests are the scheduled drift digests.
	Digests []Digest
	// ShutdownGrace is how long Run lets runs in flight finish after ctx ends before it
	// cancels them (default 2 minutes); a cancelled run is recorded as interrupted.
	ShutdownGrace time.Duration
	// MaxConcurrent is how many messages and reactions are handled at once, across every
	// conversation (default 16); one conversation's are always handled one at a time, in order.
	MaxConcurrent int
	// MaxQueued is how many messages and reactions may wait or run at once (default 512).
	// When that many wait, an adapter waits a few seconds for room, then the event is
	// dropped, logged, and its author asked to say it again.
	MaxQueued int
	// ProgressInterval is the least time between two edits of a progress post (default 1 s);
	// the final state is always posted.
	ProgressInterval time.Duration
	// Leader, when set, says whether this process leads the replicas sharing Store; nil means
	// one process that always does. With it every message is claimed in the store before it is
	// answered (a message is answered at most once across replicas).
	Leader Leadership
	// WorkDirs are the directories runs write their working files in (the data directory,
	// Terraform's working directories); /healthz reports not ready while one of them cannot be
	// written, and an approval that fails for a full disk names the directory.
	WorkDirs []string
	// Web configures the status page's links and sign-in (webapi.go).
	Web webapi.WebConfig
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Logger receives structured logs (default: discard).
	Logger *slog.Logger
}

// Engine is the conversation engine. It is safe for concurrent use.
type Engine struct {
	previewsPosting previewsPosting // previews posted but not yet recorded (previewposting.go)
	cfg             Config          // as New completed it; the approval policy in force is in pol
	parser          *intents.Parser
	st              *store.Store
	log             *slog.Logger
	m               *metrics
	disp            *queue.Queue[convKey] // messages and reactions being handled (dispatch.go)
	pol             approvalPolicy        // the approval policy in force (judge.go)
	code            codeState             // the policy as code in force and its decisions (policyjudge.go)
	runs            runBook               // runs in flight, their stop switches and watchers
	digests         digestBook            // the scheduled drift digests (digest.go)
	chat            platforms             // the adapters attached and what Eos keeps about them
	statusMu        sync.Mutex            // one edit of a preview's approval status at a time (approvalstatus.go)
}

var _ adapters.Handler = (*Engine)(nil)

// New checks the wiring and makes an Engine. Mistakes in wiring are found here, not on the
// first message.
func New(cfg Config) (*Engine, error) {
	if err := verbsCovered(); err != nil {
		return nil, err
	}
	switch {
	case cfg.Catalog == nil:
		return nil, errors.New("bot: no catalog")
	case cfg.Runner == nil:
		return nil, errors.New("bot: no runner")
	case cfg.Store == nil:
		return nil, errors.New("bot: no store")
	}
	if cfg.DefaultEnv == "" {
		cfg.DefaultEnv = "local"
	}
	configured := !cfg.Policy.Unset()
	cfg.Environments = declaredEnvs(cfg, configured)
	if !configured {
		cfg.Policy = DefaultPolicy()
		if !slices.Contains(cfg.Environments, "local") {
			// The built-in self-approval in local is for a local that is declared; one left
			// out with services still in it is judged by the default rule (environments.go).
			delete(cfg.Policy.Envs, "local")
		}
	}
	if cfg.BotName == "" {
		cfg.BotName = "eos"
	}
	if cfg.SecretsPath == "" {
		cfg.SecretsPath = "secret/eos/{env}/{service}, key {name}"
	}
	if cfg.ShutdownGrace == 0 {
		cfg.ShutdownGrace = 2 * time.Minute
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = defaultMaxConcurrent
	}
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = defaultMaxQueued
	}
	if cfg.MaxQueued < cfg.MaxConcurrent {
		cfg.MaxQueued = cfg.MaxConcurrent
	}
	if cfg.ProgressInterval == 0 {
		cfg.ProgressInterval = time.Second
	}
	if cfg.Web.LinkTTL <= 0 {
		cfg.Web.LinkTTL = webapi.DefaultLinkTTL
	}
	if cfg.Web.SessionTTL <= 0 {
		cfg.Web.SessionTTL = webapi.DefaultSessionTTL
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	digests, err := parseDigests(cfg.Digests)
	if err != nil {
		return nil, err
	}
	runCtx, stop := context.WithCancel(context.Background())
	m := newMetrics()
	if l := cfg.Leader; l != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "eos_leader",
			Help: "1 while this replica leads (connects to chat, starts runs), 0 while it stands by."},
			func() float64 {
				if l.Role() == "leader" {
					return 1
				}
				return 0
			}))
	}
	e := &Engine{
		cfg: cfg, parser: intents.NewParser(cfg.Catalog).WithBotName(cfg.BotName), st: cfg.Store, log: cfg.Logger, m: m,
		disp:    newDispatcher(cfg.MaxConcurrent, cfg.MaxQueued),
		pol:     approvalPolicy{policy: cfg.Policy},
		runs:    runBook{ctx: runCtx, cancel: stop, ready: make(chan struct{}), stops: map[string]*runStop{}, watch: runwatch.NewHub(cfg.Now)},
		digests: digestBook{plans: digests},
		chat:    platforms{adapters: map[string]adapters.Adapter{}, states: map[string]string{}, warned: map[string]bool{}},
	}
	e.cfg.Policy = Policy{} // one policy in force: e.pol's, which SetPolicy replaces
	e.code.set, e.code.zone = cfg.PolicyCode, cfg.PolicyZone
	return e, nil
}

// Attach makes an adapter known to the engine without running it (tests, and Run).
func (e *Engine) Attach(a adapters.Adapter) {
	e.chat.mu.Lock()
	defer e.chat.mu.Unlock()
	e.chat.adapters[a.Name()] = a
}

func (e *Engine) adapter(platform string) (adapters.Adapter, bool) {
	e.chat.mu.Lock()
	defer e.chat.mu.Unlock()
	a, ok := e.chat.adapters[platform]
	return a, ok
}

// Run recovers what a previous process left (interrupted runs, approved plans not started),
// then runs every adapter, the expiry sweeper and the digest scheduler until ctx ends. Runs
// and handlers in flight then get ShutdownGrace to finish before they are cancelled, and Run
// waits for them to record their outcome.
func (e *Engine) Run(ctx context.Context, as ...adapters.Adapter) error {
	for _, a := range as {
		e.Attach(a)
	}
	if err := e.Recover(ctx); err != nil {
		return err
	}
	close(e.runs.ready)
	// The sweeper stops when every adapter has stopped: with nobody to talk to, there is
	// nothing left to do.
	g, gctx := errgroup.WithContext(ctx)
	for _, a := range as {
		e.setState(a.Name(), adapterRunning)
		g.Go(func() error {
			err := a.Run(gctx, e)
			if err != nil {
				e.setState(a.Name(), "stopped: "+err.Error())
				return fmt.Errorf("%s adapter: %w", a.Name(), err)
			}
			e.setState(a.Name(), "stopped")
			return nil
		})
	}
	sctx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() { e.sweep(sctx); close(swept) }()
	pinned := make(chan struct{})
	go func() { e.pinPolicyHandles(sctx, as); close(pinned) }() // handles.go
	scheduled := make(chan struct{})
	go func() { e.schedule(sctx); close(scheduled) }()
	err := g.Wait()
	stopSweep()
	<-swept
	<-scheduled
	<-pinned
	grace, cancel := context.WithTimeout(context.Background(), e.cfg.ShutdownGrace)
	defer cancel()
	if e.Wait(grace) != nil {
		e.log.Warn("runs or requests still in flight after the shutdown grace period; cancelling them", "grace", e.cfg.ShutdownGrace)
	}
	e.runs.cancel()
	e.disp.Busy().Wait()
	e.runs.flight.Wait()
	e.runs.follow.Wait()
	return err
}

// Abandon cancels every run in flight now, without the shutdown grace: for a replica that
// lost its leadership, whose runs may not finish (their writes are refused anyway). Each is
// left for the new leader, which records it interrupted.
func (e *Engine) Abandon() { e.runs.cancel() }

// Ready is closed once Run has recovered the previous process's work and is starting the
// adapters.
func (e *Engine) Ready() <-chan struct{} { return e.runs.ready }

// Wait returns when the bot is idle: every message and reaction it was given is handled, and
// no run is in flight (a handled approval may have started one). It returns ctx's error when
// ctx ends first.
func (e *Engine) Wait(ctx context.Context) error {
	for {
		if err := e.disp.Busy().WaitCtx(ctx); err != nil {
			return err
		}
		if err := e.runs.flight.WaitCtx(ctx); err != nil {
			return err
		}
		if e.disp.Busy().Zero() && e.runs.flight.Zero() {
			return nil
		}
	}
}

// Settle returns when every message and reaction the bot was given is handled, without
// waiting for the runs they started: the console calls it before a reaction, so a piped
// script can react to a preview right after asking for it.
func (e *Engine) Settle(ctx context.Context) error { return e.disp.Busy().WaitCtx(ctx) }

// say answers in the thread of post (or at channel level where there are no threads).
func (e *Engine) say(ctx context.Context, a adapters.Adapter, post adapters.PostRef, doc adapters.Doc) adapters.PostRef {
	var ref adapters.PostRef
	var err error
	if err := e.leading(); err != nil {
		e.log.Warn("not posting: this Eos does not lead", "platform", a.Name(), "channel", post.Channel, "err", err)
		return ref
	}
	if t, ok := a.(adapters.Threader); ok {
		ref, err = t.Reply(ctx, post, doc)
	} else {
		ref, err = a.Post(ctx, post.Channel, doc)
	}
	switch {
	case errors.Is(err, adapters.ErrNoSuchPost):
		e.log.Info("not answering: the post to answer is gone", "platform", a.Name(), "channel", post.Channel, "err", err)
	case err != nil:
		e.log.Error("posting reply", "platform", a.Name(), "channel", post.Channel, "err", err)
	}
	return ref
}

// sayAnywhere is say, but when post is gone (deleted, or a console post of an earlier session)
// doc goes to post's channel instead: for what must be seen, such as a run's progress.
func (e *Engine) sayAnywhere(ctx context.Context, a adapters.Adapter, post adapters.PostRef, doc adapters.Doc) adapters.PostRef {
	if err := e.leading(); err != nil {
		e.log.Warn("not posting: this Eos does not lead", "platform", a.Name(), "channel", post.Channel, "err", err)
		return adapters.PostRef{}
	}
	if t, ok := a.(adapters.Threader); ok {
		ref, err := t.Reply(ctx, post, doc)
		if !errors.Is(err, adapters.ErrNoSuchPost) {
			if err != nil {
				e.log.Error("posting reply", "platform", a.Name(), "channel", post.Channel, "err", err)
			}
			return ref
		}
	}
	ref, err := a.Post(ctx, post.Channel, doc)
	if err != nil {
		e.log.Error("posting", "platform", a.Name(), "channel", post.Channel, "err", err)
	}
	return ref
}

// entry stamps an audit entry with the time, and with Eos as its actor when no person is.
func (e *Engine) entry(entry store.Entry) store.Entry {
	if entry.At.IsZero() {
		entry.At = e.now()
	}
	if entry.User == "" {
		// What no person did, Eos did: an expiry, a run's start and result, a freed lock.
		entry.User = e.cfg.BotName
	}
	return entry
}

func (e *Engine) audit(ctx context.Context, entry store.Entry) {
	entry = e.entry(entry)
	if err := e.st.Append(ctx, entry); err != nil {
		e.log.Error("writing audit log", "kind", entry.Kind, "err", err)
	}
}
