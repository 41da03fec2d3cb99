package nomad

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// DefaultDeployTimeout bounds how long Apply and Rollback wait for one job's deployment (or
// allocations) to become healthy when Config.DeployTimeout is zero.
const DefaultDeployTimeout = 5 * time.Minute

// Config configures the layer.
type Config struct {
	// Address is the Nomad agent's HTTP API ("http://127.0.0.1:4646"); required. NOMAD_ADDR
	// and the other NOMAD_* variables are not consulted.
	Address string
	// Region is the region requests go to; "" means the agent's own.
	Region string
	// Namespace is the namespace every job is registered in; "" means Nomad's default, or
	// the namespace a template sets itself.
	Namespace string
	// Token is the ACL token (X-Nomad-Token). It is never logged.
	Token string
	// TLS configures HTTPS to the agent; nil means plain HTTP or the system's roots.
	TLS *TLSConfig
	// DeployTimeout bounds the wait for one job to become healthy after it is registered or
	// reverted (default 5 minutes). A deployment still running then counts as failed.
	DeployTimeout time.Duration
	// SecretsPath is where a job's template reads its unit's secrets from Vault, with {env}
	// and {service} replaced: the KV v2 read path ("secret/data/eos/{env}/{service}", see
	// vault.Config.NomadSecretsPath). Templates get it as var.vault_secrets_path; "" means
	// Eos has no Vault and they get "".
	SecretsPath string
	// Logger receives structured logs (log/slog) with unit and job attributes; nil means
	// discard.
	Logger *slog.Logger
}

// TLSConfig is the TLS part of Config. Paths are PEM files.
type TLSConfig struct {
	// CACert verifies the agent's certificate; "" means the system's roots.
	CACert string
	// ClientCert and ClientKey authenticate Eos to the agent (mutual TLS); both or neither.
	ClientCert string
	ClientKey  string
	// ServerName is the name expected in the agent's certificate; "" means the address's host.
	ServerName string
	// Insecure skips verifying the agent's certificate. For tests only.
	Insecure bool
}

// Layer drives Nomad (1.4 or later) for the executor. It is safe for concurrent use on
// different unit keys.
type Layer struct {
	client      *api.Client
	namespace   string
	secretsPath string
	timeout     time.Duration
	log         *slog.Logger

	mu sync.Mutex
	// applied remembers, per job ID, what the last Apply registered, so Rollback reverts
	// exactly that. It is lost on restart; Rollback then falls back to the job's versions.
	applied map[string]appliedJob
}

var _ executor.Layer = (*Layer)(nil)

// New validates cfg and makes the API client. It does not contact the agent.
func New(cfg Config) (*Layer, error) {
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("nomad layer config: %w", err)
	}
	ac := &api.Config{
		Address:   cfg.Address,
		Region:    cfg.Region,
		Namespace: cfg.Namespace,
		SecretID:  cfg.Token,
		TLSConfig: &api.TLSConfig{},
	}
	if t := cfg.TLS; t != nil {
		ac.TLSConfig = &api.TLSConfig{
			CACert:        t.CACert,
			ClientCert:    t.ClientCert,
			ClientKey:     t.ClientKey,
			TLSServerName: t.ServerName,
			Insecure:      t.Insecure,
		}
	}
	client, err := api.NewClient(ac)
	if err != nil {
		return nil, fmt.Errorf("making the nomad client for %s: %w", cfg.Address, err)
	}
	timeout := cfg.DeployTimeout
	if timeout == 0 {
		timeout = DefaultDeployTimeout
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Layer{
		client:      client,
		namespace:   cfg.Namespace,
		secretsPath: cfg.SecretsPath,
		timeout:     timeout,
		log:         logger.With("layer", "nomad"),
		applied:     map[string]appliedJob{},
	}, nil
}

// Name is the layer's place in the run order.
func (l *Layer) Name() executor.LayerName { return executor.Nomad }

func (cfg Config) check() error {
	if cfg.Address == "" {
		return errors.New("Address is required")
	}
	u, err := url.Parse(cfg.Address)
	if err != nil {
		return fmt.Errorf("Address %q: %w", cfg.Address, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "unix") || (u.Scheme != "unix" && u.Host == "") {
		return fmt.Errorf("Address %q: want http://host:port, https://host:port or unix:///path", cfg.Address)
	}
	if cfg.DeployTimeout < 0 {
		return fmt.Errorf("DeployTimeout %s is negative", cfg.DeployTimeout)
	}
	if cfg.SecretsPath != "" && !strings.Contains(cfg.SecretsPath, "{service}") {
		return fmt.Errorf("SecretsPath %q lacks {service}: each unit's job must read its own secrets", cfg.SecretsPath)
	}
	if t := cfg.TLS; t != nil && (t.ClientCert == "") != (t.ClientKey == "") {
		return errors.New("TLS.ClientCert and TLS.ClientKey go together")
	}
	return nil
}
