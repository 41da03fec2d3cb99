// Package discord connects Eos to Discord: it listens on the gateway for messages addressed to
// the bot (a leading mention, or a direct message) and for reactions, resumes the gateway
// session when the connection drops, and posts, threads, edits, reacts and deletes through the
// REST API. It renders adapters.Doc as Discord markdown within the 2,000-character message
// limit. Approval groups are the guild's roles, by id or by a name only one role has; people
// named in a policy are found by id or unique username (LookupUser), never by a nickname or
// display name. Deleting a person's message needs Manage Messages.
//
// It imports only package adapters of Eos (never bot, intents, catalog or executor) and the
// discordgo client library.
package discord

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

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
)

// platform is the adapter's Name and the Platform of every PostRef it makes.
const platform = "discord"

// intents are the gateway events the bot asks for. MessageContent is privileged: it must be
// enabled for the bot in the developer portal, or mentions arrive with empty text.
const intents = discordgo.IntentsGuildMessages | discordgo.IntentsDirectMessages |
	discordgo.IntentsMessageContent | discordgo.IntentsGuildMessageReactions |
	discordgo.IntentsDirectMessageReactions

// restTimeout bounds one REST call.
const restTimeout = 20 * time.Second

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
	// Token is the bot token from the developer portal, with or without the "Bot " prefix.
	// Never logged.
	Token string
	// Channels the bot serves, as channel ids (threads inside them included). Empty means
	// every channel the bot sees, plus direct messages; a non-empty list restricts the bot to
	// exactly these channels (list a DM channel's id to serve it).
	Channels []string
	// Threads starts a thread from each request message, where the channel allows it, and
	// answers there; where it does not (direct messages), answers reply to the request. Nil
	// means true.
	Threads *bool
	// Guild is the id of the guild (server) whose roles are the approval groups ("group:NAME"
	// names a role) and whose members LookupUser searches. Empty means the one guild the bot
	// is in; a bot in several guilds must name one, or MemberOf and LookupUser fail.
	Guild string
	// APIBase is the REST API's base URL, ending in the API version
	// ("https://discord.com/api/v9/", the default). Tests point it at a fake; the gateway's
	// address is asked from APIBase + "gateway", as from Discord.
	APIBase string
	// Logger receives connection and delivery problems; slog.Default() when nil.
	Logger *slog.Logger
}

// LogValue keeps the token out of logs when a Config is logged.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.Any("channels", c.Channels), slog.Bool("threads", c.threads()),
		slog.String("guild", c.Guild), slog.String("api_base", c.APIBase))
}

func (c Config) threads() bool { return c.Threads == nil || *c.Threads }

// Adapter is a connection to Discord as one bot user.
type Adapter struct {
	cfg      Config
	s        *discordgo.Session
	log      *slog.Logger
	served   map[string]bool // Config.Channels; nil serves every channel
	users    *userCache
	channels *channelCache
	roles    *roleCache

	mu   sync.Mutex
	self *discordgo.User // the bot, learned with users/@me

	link adapters.Link // whether the gateway session is up, for Connected
}

// New checks cfg and returns an Adapter; it does not contact Discord (Run does).
func New(cfg Config) (*Adapter, error) {
	token := strings.TrimSpace(strings.TrimPrefix(cfg.Token, "Bot "))
	if token == "" {
		return nil, errors.New("discord: Token is required")
	}
	if strings.Trim(cfg.Guild, "0123456789") != "" {
		return nil, fmt.Errorf("discord: guild %q is not a guild id (a number)", cfg.Guild)
	}
	var transport http.RoundTripper = http.DefaultTransport
	if cfg.APIBase != "" {
		rb, err := newRebase(discordgo.EndpointAPI, cfg.APIBase, transport)
		if err != nil {
			return nil, fmt.Errorf("discord: %w", err)
		}
		transport = rb
	}
	var served map[string]bool
	for _, c := range cfg.Channels {
		if c == "" || strings.Trim(c, "0123456789") != "" {
			return nil, fmt.Errorf("discord: channel %q is not a channel id (a number)", c)
		}
		if served == nil {
			served = make(map[string]bool)
		}
		served[c] = true
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	s.Client = &http.Client{Timeout: restTimeout, Transport: transport}
	s.Identify.Intents = intents
	// Run owns reconnection (discordgo's own loop cannot be stopped) and the event order.
	s.ShouldReconnectOnError = false
	s.SyncEvents = true
	s.StateEnabled = false
	s.LogLevel = discordgo.LogError - 1 // silent: Run logs what it sees, through cfg.Logger
	a := &Adapter{
		cfg:    cfg,
		s:      s,
		log:    logger.With("adapter", platform),
		served: served,
		users:  newUserCache(),
	}
	a.channels = newChannelCache()
	a.roles = &roleCache{now: time.Now, guild: cfg.Guild}
	return a, nil
}

// Name is "discord".
func (a *Adapter) Name() string { return platform }

// identity returns the bot's own user, asking Discord once.
func (a *Adapter) identity(ctx context.Context) (*discordgo.User, error) {
	a.mu.Lock()
	self := a.self
	a.mu.Unlock()
	if self != nil {
		return self, nil
	}
	me, err := a.s.User("@me", discordgo.WithContext(ctx))
	if err != nil {
		if statusOf(err) == http.StatusUnauthorized {
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

func (e *configError) Error() string   { return "discord: " + e.err.Error() }
func (e *configError) Unwrap() error   { return e.err }
func (e *configError) Permanent() bool { return true }

// statusOf is the HTTP status of a failed REST call, 0 when there was no response.
func statusOf(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}

// codeOf is Discord's JSON error code of a failed REST call, 0 when there is none.
func codeOf(err error) int {
	var re *discordgo.RESTError
	if errors.As(err, &re) && re.Message != nil {
		return re.Message.Code
	}
	return 0
}

// rebase sends the REST calls discordgo makes to its fixed endpoint to another base URL.
type rebase struct {
	from, to *url.URL
	next     http.RoundTripper
}

func newRebase(from, to string, next http.RoundTripper) (*rebase, error) {
	f, err := url.Parse(from)
	if err != nil {
		return nil, fmt.Errorf("parsing %q: %w", from, err)
	}
	t, err := url.Parse(to)
	if err != nil || t.Host == "" || (t.Scheme != "http" && t.Scheme != "https") {
		return nil, fmt.Errorf("APIBase %q must be http(s)://host[:port]/path/", to)
	}
	if !strings.HasSuffix(t.Path, "/") {
		t.Path += "/"
	}
	return &rebase{from: f, to: t, next: next}, nil
}

func (r *rebase) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != r.from.Host || !strings.HasPrefix(req.URL.Path, r.from.Path) {
		return r.next.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme, u.Host = r.to.Scheme, r.to.Host
	u.Path = r.to.Path + strings.TrimPrefix(req.URL.Path, r.from.Path)
	u.RawPath = ""
	out.URL, out.Host = &u, u.Host
	return r.next.RoundTrip(out)
}
