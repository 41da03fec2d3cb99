package vault

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/hashicorp/vault/api"

	"github.com/eosbot/eos/executor"
)

// Store is a connection to Vault that keeps Eos's secrets. It is safe for concurrent use.
type Store struct {
	client   *api.Client
	kv       *api.KVv2
	addr     string
	mount    string
	template string
	provider string
	length   int
	appRole  *AppRole
	log      *slog.Logger
	// generate makes a new secret value; tests replace it.
	generate func(n int) string
	// runRetry bounds how long a run's secrets wait for a Vault that does not answer, paced
	// by backoff (secrets.go); tests shorten them.
	runRetry time.Duration
	backoff  executor.Backoff

	mu sync.Mutex
	// auth is the token's authentication data (from the login, or from a lookup of the
	// configured token); Run watches its lifetime.
	auth *api.Secret
}

var _ executor.Secrets = (*Store)(nil)

// New connects to Vault, checks that it is reachable and unsealed, and authenticates (with the
// token, or by logging in with AppRole). Run keeps the token alive afterwards.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if err := cfg.normalise(); err != nil {
		return nil, fmt.Errorf("vault config: %w", err)
	}
	client, err := newClient(cfg)
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Store{
		client:   client,
		kv:       client.KVv2(cfg.Mount),
		addr:     cfg.Address,
		mount:    cfg.Mount,
		template: cfg.PathTemplate,
		provider: cfg.ProviderPath,
		length:   cfg.SecretLength,
		appRole:  cfg.AppRole,
		log:      logger.With("component", "vault"),
		generate: generate,
		runRetry: defaultRunRetry,
		backoff:  executor.DefaultBackoff,
	}
	if err := s.checkSeal(ctx); err != nil {
		return nil, err
	}
	if cfg.AppRole != nil {
		err = s.loginAppRole(ctx)
	} else {
		err = s.useToken(ctx, cfg.Token)
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// newClient builds the API client from cfg alone: the VAULT_TOKEN and VAULT_NAMESPACE the
// library reads from the environment are cleared, so Eos uses exactly what it was configured
// with.
func newClient(cfg Config) (*api.Client, error) {
	ac := api.DefaultConfig()
	if ac.Error != nil {
		return nil, fmt.Errorf("vault client defaults: %w", ac.Error)
	}
	ac.Address = cfg.Address
	ac.Timeout = cfg.Timeout
	if err := ac.ConfigureTLS(&api.TLSConfig{
		CACert:        cfg.TLS.CACert,
		ClientCert:    cfg.TLS.ClientCert,
		ClientKey:     cfg.TLS.ClientKey,
		TLSServerName: cfg.TLS.ServerName,
		Insecure:      cfg.TLS.Insecure,
	}); err != nil {
		return nil, fmt.Errorf("configuring TLS to Vault: %w", err)
	}
	client, err := api.NewClient(ac)
	if err != nil {
		return nil, fmt.Errorf("creating the vault client for %s: %w", cfg.Address, err)
	}
	client.ClearToken()
	client.ClearNamespace()
	if cfg.Namespace != "" {
		client.SetNamespace(cfg.Namespace)
	}
	return client, nil
}

// ErrSealed is returned (wrapped) by New when Vault is sealed.
var ErrSealed = errors.New("vault is sealed")

// checkSeal asks Vault's unauthenticated seal status, which tells an unreachable Vault from a
// sealed or uninitialised one.
func (s *Store) checkSeal(ctx context.Context) error {
	st, err := s.client.Sys().SealStatusWithContext(ctx)
	if err != nil {
		return fmt.Errorf("cannot reach Vault at %s: %w", s.addr, err)
	}
	switch {
	case !st.Initialized:
		return fmt.Errorf("Vault at %s is not initialised: initialise and unseal it, then restart Eos", s.addr)
	case st.Sealed:
		return fmt.Errorf("Vault at %s is sealed: unseal it, then restart Eos: %w", s.addr, ErrSealed)
	}
	return nil
}

// useToken adopts a configured token and looks it up, which both checks it and learns whether
// and how long it can be renewed.
func (s *Store) useToken(ctx context.Context, token string) error {
	s.client.SetToken(token)
	self, err := s.client.Auth().Token().LookupSelfWithContext(ctx)
	if err != nil {
		return fmt.Errorf("checking the Vault token with %s: %w", s.addr, err)
	}
	renewable, err := self.TokenIsRenewable()
	if err != nil {
		return fmt.Errorf("reading the Vault token's lookup: %w", err)
	}
	ttl, err := self.TokenTTL()
	if err != nil {
		return fmt.Errorf("reading the Vault token's lookup: %w", err)
	}
	s.setAuth(&api.Secret{Auth: &api.SecretAuth{
		ClientToken:   token,
		Renewable:     renewable,
		LeaseDuration: int(ttl.Seconds()),
	}})
	s.log.Info("authenticated to Vault with a token", "addr", s.addr, "renewable", renewable, "ttl", ttl)
	return nil
}

// loginAppRole logs in with the configured AppRole and adopts the token it returns.
func (s *Store) loginAppRole(ctx context.Context) error {
	path := "auth/" + s.appRole.Mount + "/login"
	// Login needs no token; clear any expired one so Vault does not reject the request.
	s.client.ClearToken()
	secret, err := s.client.Logical().WriteWithContext(ctx, path, map[string]any{
		"role_id":   s.appRole.RoleID,
		"secret_id": s.appRole.SecretID,
	})
	if err != nil {
		return fmt.Errorf("logging in to Vault at %s with AppRole: %w", s.addr, err)
	}
	if secret == nil || secret.Auth == nil || secret.Auth.ClientToken == "" {
		return fmt.Errorf("logging in to Vault at %s with AppRole: the answer has no token", s.addr)
	}
	s.client.SetToken(secret.Auth.ClientToken)
	s.setAuth(secret)
	s.log.Info("logged in to Vault with AppRole", "addr", s.addr, "mount", s.appRole.Mount,
		"renewable", secret.Auth.Renewable, "ttl_seconds", secret.Auth.LeaseDuration)
	return nil
}

func (s *Store) setAuth(a *api.Secret) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auth = a
}

func (s *Store) currentAuth() *api.Secret {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.auth
}
