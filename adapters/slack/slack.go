// Package slack connects Eos to a Slack workspace: it listens over Socket Mode (no public
// endpoint) for mentions of the bot, direct messages and reactions, acknowledges every envelope,
// reconnects with backoff when the socket drops, and posts, threads, edits and reacts through the
// Web API. It renders adapters.Doc as Block Kit within Slack's limits; what does not fit goes to
// replies in the post's thread. It deletes a person's message only with an admin's user token
// (Config.AdminUserToken). It resolves approval groups as Slack user groups, by handle, and
// people named in a policy by member id or by their unique username (LookupUser), never by a
// display name.
//
// It imports only package adapters of Eos (never bot, intents, catalog or executor) and the
// slack-go library.
package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// platform is the adapter's Name and the Platform of every PostRef it makes.
const platform = "slack"

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
	// AppToken is the app-level token (xapp-…) with the connections:write scope, used to open
	// Socket Mode connections. Never logged.
	AppToken string
	// BotToken is the bot token (xoxb-…) used for the Web API. Never logged. Approval groups
	// (user groups) need its usergroups:read scope, people named in a policy its users:read.
	BotToken string
	// AdminUserToken, optional, is a user token (xoxp-…) of a workspace admin or owner with the
	// chat:write scope. Slack lets a bot token delete only the bot's own messages; with this
	// token Delete can take down anyone's message (one with a typed secret). Without it,
	// Delete of a person's message returns adapters.ErrNotPermitted. Used for nothing else;
	// never logged.
	AdminUserToken string
	// Channels the bot serves, as channel ids ("C0123ABC") or names ("infra" or "#infra").
	// Empty means every channel the bot is a member of, plus direct messages; a non-empty list
	// restricts the bot to exactly these channels (list a direct message's id to serve it).
	Channels []string
	// APIURL is the Web API's base URL; empty means Slack's own (https://slack.com/api/).
	// Tests point it at a fake.
	APIURL string
	// MinBackoff and MaxBackoff bound the jittered exponential delay between reconnection
	// attempts (defaults 1 s and 30 s).
	MinBackoff, MaxBackoff time.Duration
	// Logger receives connection and delivery problems; slog.Default() when nil.
	Logger *slog.Logger
}

// LogValue keeps the tokens out of logs when a Config is logged.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("api_url", c.APIURL), slog.Any("channels", c.Channels),
		slog.Duration("min_backoff", c.MinBackoff), slog.Duration("max_backoff", c.MaxBackoff))
}

// Adapter is a connection to one Slack workspace as one bot user.
type Adapter struct {
	cfg     Config
	api     *slack.Client
	admin   *slack.Client // with Config.AdminUserToken, for chat.delete; nil without
	log     *slog.Logger
	backoff adapters.Backoff
	served  served

	users   *bounded[adapters.User] // user id → user
	names   *bounded[string]        // channel id → channel name, for Config.Channels by name
	threads *bounded[string]        // ts of a post the bot made → its thread's root ts
	seen    *bounded[struct{}]      // channel/ts of messages delivered, so each is delivered once
	groups  *groupCache             // the workspace's user groups, for MemberOf
	members *memberCache            // the workspace's members, for LookupUser

	mu   sync.Mutex
	self *identity // the bot, learned with auth.test

	link adapters.Link // whether Socket Mode is up, for Connected

	// pause waits between reconnection attempts and reports false when ctx ends first.
	pause func(ctx context.Context, d time.Duration) bool
}

// identity is who the bot is on the workspace.
type identity struct {
	userID, name, botID string
}

// New checks cfg and returns an Adapter; it does not contact Slack (Run does).
func New(cfg Config) (*Adapter, error) {
	if !strings.HasPrefix(cfg.AppToken, "xapp-") {
		return nil, errors.New("slack: AppToken must be an app-level token (xapp-…)")
	}
	if !strings.HasPrefix(cfg.BotToken, "xoxb-") {
		return nil, errors.New("slack: BotToken must be a bot token (xoxb-…)")
	}
	if cfg.AdminUserToken != "" && !strings.HasPrefix(cfg.AdminUserToken, "xoxp-") {
		return nil, errors.New("slack: AdminUserToken must be a user token (xoxp-…)")
	}
	var apiURL []slack.Option
	if cfg.APIURL != "" {
		u, err := url.Parse(cfg.APIURL)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("slack: APIURL %q must be http(s)://host[:port]/path/", cfg.APIURL)
		}
		apiURL = append(apiURL, slack.OptionAPIURL(strings.TrimRight(cfg.APIURL, "/")+"/"))
	}
	// Slack refuses a method called more often than its tier allows (HTTP 429, Retry-After):
	// the call waits as long as Slack says and is made again, up to 3 times, so a burst (a
	// run's progress edits, the reactions catch-up lists after a restart) is slowed, not lost.
	apiURL = append(apiURL, slack.OptionRetry(3))
	opts := append([]slack.Option{slack.OptionAppLevelToken(cfg.AppToken)}, apiURL...)
	var admin *slack.Client
	if cfg.AdminUserToken != "" {
		admin = slack.New(cfg.AdminUserToken, apiURL...)
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 30 * time.Second
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		return nil, fmt.Errorf("slack: MaxBackoff %s is below MinBackoff %s", cfg.MaxBackoff, cfg.MinBackoff)
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	return &Adapter{
		cfg:     cfg,
		api:     slack.New(cfg.BotToken, opts...),
		admin:   admin,
		log:     logger.With("adapter", platform),
		backoff: adapters.Backoff{Min: cfg.MinBackoff, Max: cfg.MaxBackoff},
		served:  newServed(cfg.Channels),
		users:   newBounded[adapters.User](1024),
		names:   newBounded[string](1024),
		threads: newBounded[string](1024),
		seen:    newBounded[struct{}](1024),
		groups:  &groupCache{now: time.Now},
		members: &memberCache{now: time.Now},
		pause:   adapters.Sleep,
	}, nil
}

// Name is "slack".
func (a *Adapter) Name() string { return platform }

// whoami returns the bot's own identity, asking Slack once.
func (a *Adapter) whoami(ctx context.Context) (*identity, error) {
	a.mu.Lock()
	self := a.self
	a.mu.Unlock()
	if self != nil {
		return self, nil
	}
	res, err := a.api.AuthTestContext(ctx)
	if err != nil {
		if isAuthError(err) {
			return nil, &configError{fmt.Errorf("the bot token was refused: %w", err)}
		}
		return nil, fmt.Errorf("asking who the bot is: %w", err)
	}
	self = &identity{userID: res.UserID, name: res.User, botID: res.BotID}
	a.mu.Lock()
	a.self = self
	a.mu.Unlock()
	a.users.put(self.userID, adapters.User{ID: self.userID, Name: self.name, Bot: true})
	return self, nil
}

// configError is a mistake in Config that no reconnection can fix; Run returns it.
type configError struct{ err error }

func (e *configError) Error() string   { return "slack: " + e.err.Error() }
func (e *configError) Unwrap() error   { return e.err }
func (e *configError) Permanent() bool { return true }

// isAuthError reports whether err is Slack refusing a token.
func isAuthError(err error) bool {
	var se slack.SlackErrorResponse
	msg := err.Error()
	if errors.As(err, &se) {
		msg = se.Err
	}
	switch msg {
	case "invalid_auth", "not_authed", "account_inactive", "token_revoked", "token_expired", "not_allowed_token_type":
		return true
	}
	return false
}
