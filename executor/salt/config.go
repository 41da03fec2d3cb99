package salt

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/eosbot/eos/executor"
)

// Defaults applied by New when a Config field is zero.
const (
	DefaultEAuth        = "pam"
	DefaultStateDir     = "eos"
	DefaultSaltEnv      = "base"
	DefaultTimeout      = 30 * time.Minute
	DefaultPollInterval = 2 * time.Second
	DefaultHTTPTimeout  = 60 * time.Second
)

// Config configures the layer.
type Config struct {
	// URL is salt-api's base URL ("https://salt.example.org:8000"). Required.
	URL string
	// Username and Password log in to salt-api; the password is never logged.
	Username string
	Password string
	// EAuth is the external authentication backend (default "pam").
	EAuth string
	// Targets are the minions a unit applies to when its Salt part names none. A single
	// entry with glob characters (*, ?, [) is a glob ("*", "web*"); otherwise a list of
	// minion IDs. Default "*".
	Targets []string
	// StateDir is the directory under the master's first file_roots entry of SaltEnv where
	// Eos writes its state files (default "eos").
	StateDir string
	// SaltEnv is the Salt file server environment (default "base").
	SaltEnv string
	// TLS configures https to salt-api.
	TLS TLSConfig
	// Timeout bounds one state run: minions that have not returned by then count as
	// unreachable (default 30 minutes).
	Timeout time.Duration
	// PollInterval is the longest wait between two looks at a running job (default 2s; the
	// first looks come sooner).
	PollInterval time.Duration
	// HTTPTimeout bounds each request to salt-api (default 60s); the /events stream is bound
	// by Timeout instead.
	HTTPTimeout time.Duration
	// PingTimeout bounds the test.ping that resolves a unit's targets before each plan and
	// drift check: a targeted minion that has not answered by then fails the plan, and
	// nothing runs (default 10s).
	PingTimeout time.Duration
	// DisableEvents stops the layer from following salt-api's /events stream while it
	// applies. By default it opens the stream before starting each state run and asks
	// state.apply for state events (the state_events=True keyword argument, Salt 3006 and
	// later; older minions ignore it and need state_events: True in the master's
	// configuration), so each state is reported as it finishes. Without the stream
	// (disabled, refused, dropped, or buffered by a proxy) progress arrives per minion, as
	// each returns, from /jobs.
	DisableEvents bool
	// DryRunsFromEvents makes dry runs (plans, drift checks) take every minion's return from
	// its return event on the stream, about a second sooner than from /jobs (a salt-api
	// runner per look). Off by default: any minion can fire events with any tag onto the
	// master's bus, so a compromised minion could forge another minion's dry-run return in
	// the master's own shape (the multi-event form; as it could for the salt command line,
	// which reads the same events), and the approver would see a plan that is not the one
	// the states make. /jobs holds only what each minion returned itself, as applies always
	// read. Turn it on only where every minion is trusted as much as the master.
	DryRunsFromEvents bool
	// Logger receives structured logs; nil means discard. Pillar data and the password are
	// never logged.
	Logger *slog.Logger
}

// TLSConfig configures https to salt-api.
type TLSConfig struct {
	// CACert is a PEM file of CA certificates to trust instead of the system's.
	CACert string
	// Insecure disables certificate verification; for tests only.
	Insecure bool
}

// Layer drives Salt through salt-api. It is safe for concurrent use.
type Layer struct {
	api      *client
	targets  []string
	stateDir string
	saltEnv  string
	timeout  time.Duration
	poll     time.Duration
	// pingTimeout bounds the test.ping that resolves targets.
	pingTimeout time.Duration
	// events says whether applies follow /events; safety is how often /jobs is still
	// looked at while the stream is up, in case it lost a return.
	events bool
	safety time.Duration
	// eventReturns says dry runs take returns from return events (Config.DryRunsFromEvents).
	eventReturns bool
	// quick holds a place for each stream open only to see returns sooner (streams.go);
	// quickSafety is how often /jobs is looked at while such a stream is up.
	quick       chan struct{}
	quickSafety time.Duration
	// dry holds a place for each dry run under way (maxDryRuns; dryRunSlot).
	dry chan struct{}
	// dirs are the minions' eos_data_dir, read once each (datadir.go).
	dirs dataDirCache
	// backoff paces retries while salt-api or the master does not answer; dryRetry bounds
	// them in a dry run; waitNotice is how long a job may go silent before the progress
	// names the minions it waits for (retry.go).
	backoff    executor.Backoff
	dryRetry   time.Duration
	waitNotice time.Duration
	log        *slog.Logger
	now        func() time.Time
	// separate gives every unit's dry run a job of its own, as before units on the same
	// minions shared one (batch.go); tests compare the two.
	separate bool
}

var _ executor.Layer = (*Layer)(nil)

// New validates cfg. It does not contact salt-api; the first call logs in.
func New(cfg Config) (*Layer, error) {
	if err := cfg.normalise(); err != nil {
		return nil, fmt.Errorf("salt layer config: %w", err)
	}
	base, err := url.Parse(strings.TrimRight(cfg.URL, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("salt layer config: URL %q is not an http(s) URL", cfg.URL)
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.TLS.CACert != "" || cfg.TLS.Insecure {
		tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: cfg.TLS.Insecure} //nolint:gosec // opt-in, for tests
		if cfg.TLS.CACert != "" {
			pem, err := os.ReadFile(cfg.TLS.CACert)
			if err != nil {
				return nil, fmt.Errorf("salt layer config: reading CACert: %w", err)
			}
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pem) {
				return nil, fmt.Errorf("salt layer config: %s holds no PEM certificate", cfg.TLS.CACert)
			}
			tc.RootCAs = pool
		}
		transport.TLSClientConfig = tc
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	logger = logger.With("layer", "salt")
	return &Layer{
		api: &client{
			base:     base,
			http:     &http.Client{Transport: transport, Timeout: cfg.HTTPTimeout},
			stream:   &http.Client{Transport: transport},
			username: cfg.Username,
			password: cfg.Password,
			eauth:    cfg.EAuth,
			log:      logger,
			now:      time.Now,
		},
		targets:      cfg.Targets,
		stateDir:     cfg.StateDir,
		saltEnv:      cfg.SaltEnv,
		timeout:      cfg.Timeout,
		poll:         cfg.PollInterval,
		pingTimeout:  cfg.PingTimeout,
		events:       !cfg.DisableEvents,
		eventReturns: cfg.DryRunsFromEvents,
		quick:        make(chan struct{}, maxQuickStreams),
		dry:          make(chan struct{}, maxDryRuns),
		quickSafety:  max(quickSafetyPoll, cfg.PollInterval),
		safety:       max(safetyPoll, cfg.PollInterval),
		backoff:      executor.DefaultBackoff,
		dryRetry:     dryRetry,
		waitNotice:   waitNotice,
		log:          logger,
		now:          time.Now,
	}, nil
}

// Name is the layer's place in the run order.
func (l *Layer) Name() executor.LayerName { return executor.Salt }

func (cfg *Config) normalise() error {
	switch {
	case cfg.URL == "":
		return errors.New("URL is required")
	case cfg.Username == "" || cfg.Password == "":
		return errors.New("Username and Password are required")
	case cfg.Timeout < 0 || cfg.PollInterval < 0 || cfg.HTTPTimeout < 0 || cfg.PingTimeout < 0:
		return errors.New("timeouts must not be negative")
	}
	if cfg.EAuth == "" {
		cfg.EAuth = DefaultEAuth
	}
	if len(cfg.Targets) == 0 {
		cfg.Targets = []string{"*"}
	}
	if cfg.StateDir == "" {
		cfg.StateDir = DefaultStateDir
	}
	cfg.StateDir = strings.Trim(cfg.StateDir, "/")
	for _, seg := range strings.Split(cfg.StateDir, "/") {
		if !isName(seg) {
			return fmt.Errorf("StateDir %q: each part may contain only letters, digits, '_' and '-'", cfg.StateDir)
		}
	}
	if cfg.SaltEnv == "" {
		cfg.SaltEnv = DefaultSaltEnv
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.PollInterval == 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.PingTimeout == 0 {
		cfg.PingTimeout = DefaultPingTimeout
	}
	cfg.PingTimeout = max(cfg.PingTimeout.Round(time.Second), time.Second)
	if cfg.HTTPTimeout == 0 {
		cfg.HTTPTimeout = DefaultHTTPTimeout
	}
	return nil
}

// isName accepts what may appear in an sls name segment: letters, digits, '_' and '-' (a dot
// would be read as a directory separator).
func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
