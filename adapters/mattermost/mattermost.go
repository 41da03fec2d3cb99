// Package mattermost connects Eos to a Mattermost server: it listens on the websocket for posts
// addressed to the bot and for reactions, reconnects with backoff when the connection drops, and
// posts, threads, edits, reacts and deletes through the REST API (v4). It renders adapters.Doc
// as Mattermost markdown and respects the server's post length limit.
//
// Deleting someone else's post (a message with a typed secret) needs the delete_others_posts
// permission, which team admins have. Approval groups are Mattermost groups, which only a
// licensed server has; against the unlicensed test server only the refusal is verified (see
// MemberOf).
//
// It imports only package adapters of Eos (never bot, intents, catalog or executor) and the
// Mattermost client library.
package mattermost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// platform is the adapter's Name and the Platform of every PostRef it makes.
const platform = "mattermost"

var (
	_ adapters.Adapter        = (*Adapter)(nil)
	_ adapters.Threader       = (*Adapter)(nil)
	_ adapters.Editor         = (*Adapter)(nil)
	_ adapters.Reactor        = (*Adapter)(nil)
	_ adapters.ReactionReader = (*Adapter)(nil)
	_ adapters.Deleter        = (*Adapter)(nil)
	_ adapters.GroupResolver  = (*Adapter)(nil)
	_ adapters.UserResolver   = (*Adapter)(nil)
	_ adapters.Connection     = (*Adapter)(nil)
	_ adapters.Whisperer      = (*Adapter)(nil)
	_ adapters.ChannelViewer  = (*Adapter)(nil)
)

// Config configures an Adapter.
type Config struct {
	// URL of the server, e.g. https://chat.example.org.
	URL string
	// Token is the bot account's access token. Never logged.
	Token string
	// Channels the bot serves, as "team/channel" names or channel ids. Empty means every
	// channel the bot is a member of, plus direct messages; a non-empty list restricts the bot
	// to exactly these channels (list a direct channel's id to serve it).
	Channels []string
	// MinBackoff and MaxBackoff bound the jittered exponential delay between reconnection
	// attempts (defaults 1 s and 30 s).
	MinBackoff, MaxBackoff time.Duration
	// Cursors, when set, keeps how far the bot has read each served channel, so that the next
	// process (after a restart, or a replica taking over) catches up from there: posts and
	// reactions written while no process was connected are delivered. Delivery is then
	// at-least-once: the first catch-up of a channel delivers again what lies within
	// catchUpMargin (5 s) before its cursor, and a process that stops between delivering and
	// saving leaves the cursor behind; the engine filters the repeats. Nil catches up from
	// Run's start only.
	Cursors adapters.Cursors
	// CatchUpMax bounds how far back a first catch-up from a stored cursor reaches (default
	// 24 h): what is older is not delivered, and a warning says so.
	CatchUpMax time.Duration
	// Logger receives connection and delivery problems; slog.Default() when nil.
	Logger *slog.Logger
}

// LogValue keeps the token out of logs when a Config is logged.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("url", c.URL), slog.Any("channels", c.Channels),
		slog.Duration("min_backoff", c.MinBackoff), slog.Duration("max_backoff", c.MaxBackoff),
		slog.Bool("cursors", c.Cursors != nil), slog.Duration("catch_up_max", c.CatchUpMax))
}

// Adapter is a connection to one Mattermost server as one bot account.
type Adapter struct {
	cfg     Config
	api     api
	wsURL   string
	log     *slog.Logger
	backoff adapters.Backoff
	users   *userCache
	recent  *recentSet
	cursors *cursors // nil without Config.Cursors

	mu       sync.Mutex
	self     *model.User                  // the bot, learned with GetMe
	served   map[string]model.ChannelType // resolved Config.Channels; nil serves every channel
	lastSeen int64                        // CreateAt (ms) of the newest post heard, for catch-up

	wsMu sync.Mutex
	ws   *model.WebSocketClient // the live socket, so tests can drop it

	link adapters.Link // whether the websocket is up, for Connected

	// pause waits between reconnection attempts (sleep; tests hold it to act while the bot
	// is disconnected) and reports false when ctx ends first.
	pause func(ctx context.Context, d time.Duration) bool
	// onConnect, when set (tests only), is called after each websocket connection is greeted.
	onConnect func()
}

// New checks cfg and returns an Adapter; it does not contact the server (Run does).
func New(cfg Config) (*Adapter, error) {
	u, err := url.Parse(strings.TrimRight(cfg.URL, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("mattermost: URL %q must be http(s)://host[:port]", cfg.URL)
	}
	if cfg.Token == "" {
		return nil, errors.New("mattermost: Token is required")
	}
	for _, c := range cfg.Channels {
		if _, _, err := parseChannel(c); err != nil {
			return nil, fmt.Errorf("mattermost: %w", err)
		}
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		return nil, fmt.Errorf("mattermost: MaxBackoff %s is below MinBackoff %s", cfg.MaxBackoff, cfg.MinBackoff)
	}
	if cfg.CatchUpMax <= 0 {
		cfg.CatchUpMax = 24 * time.Hour
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	logger = logger.With("adapter", platform)
	var cur *cursors
	if cfg.Cursors != nil {
		cur = newCursors(cfg.Cursors, cfg.CatchUpMax, logger)
	}
	httpURL := u.String()
	client := model.NewAPIv4Client(httpURL)
	client.HTTPClient = &http.Client{Transport: retryRateLimited{base: http.DefaultTransport}} // ratelimit.go
	client.SetToken(cfg.Token)
	ws := *u
	ws.Scheme = map[string]string{"http": "ws", "https": "wss"}[u.Scheme]
	return &Adapter{
		cfg:     cfg,
		api:     client,
		wsURL:   ws.String(),
		log:     logger,
		backoff: adapters.Backoff{Min: cfg.MinBackoff, Max: cfg.MaxBackoff},
		users:   newUserCache(),
		recent:  newRecentSet(512),
		cursors: cur,
		pause:   adapters.Sleep,
	}, nil
}

// Name is "mattermost".
func (a *Adapter) Name() string { return platform }

// identity returns the bot's own user, asking the server once.
func (a *Adapter) identity(ctx context.Context) (*model.User, error) {
	a.mu.Lock()
	self := a.self
	a.mu.Unlock()
	if self != nil {
		return self, nil
	}
	me, resp, err := a.api.GetMe(ctx, "")
	if err != nil {
		if statusOf(resp) == 401 {
			return nil, &configError{fmt.Errorf("the token was refused: %w", err)}
		}
		return nil, fmt.Errorf("asking who the bot is: %w", err)
	}
	a.mu.Lock()
	a.self = me
	a.mu.Unlock()
	a.users.put(me)
	return me, nil
}

// configError is a mistake in Config that no reconnection can fix; Run returns it.
type configError struct{ err error }

func (e *configError) Error() string   { return "mattermost: " + e.err.Error() }
func (e *configError) Unwrap() error   { return e.err }
func (e *configError) Permanent() bool { return true }

func statusOf(resp *model.Response) int {
	if resp == nil {
		return 0
	}
	return resp.StatusCode
}
