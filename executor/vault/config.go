package vault

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Defaults applied by New when a Config field is zero.
const (
	DefaultMount        = "secret"
	DefaultPathTemplate = "eos/{env}/{service}"
	DefaultProviderPath = "eos/providers"
	DefaultAppRoleMount = "approle"
	DefaultSecretLength = 32
	DefaultTimeout      = 30 * time.Second
)

// minSecretLength keeps a misconfiguration from producing guessable secrets: 16 characters of
// the 56-letter alphabet are about 93 bits.
const minSecretLength = 16

// Config configures a Store. Exactly one of Token and AppRole must be set.
type Config struct {
	// Address is Vault's URL ("https://vault.example.org:8200"). Required.
	Address string
	// Token authenticates directly. Never logged.
	Token string
	// AppRole, when set, logs in with a role ID and secret ID instead of a token; Eos logs in
	// again whenever the token it got reaches its maximum lifetime.
	AppRole *AppRole
	// Namespace is the Vault Enterprise namespace; "" means none (VAULT_NAMESPACE is ignored).
	Namespace string
	// Mount is the KV version 2 secrets engine's mount path (default "secret").
	Mount string
	// PathTemplate places a unit's entry under Mount; {env} and {service} are replaced by the
	// spec's environment and the unit's service, and both are required (default
	// "eos/{env}/{service}"). Each secret of the unit is one key of the entry, named as the
	// blueprint names the secret (admin_password), so a Nomad template reads them all at
	// NomadSecretsPath.
	PathTemplate string
	// ProviderPath is the KV path under Mount holding provider credentials, one key per
	// environment variable name (HCLOUD_TOKEN, CLOUDFLARE_API_TOKEN); default "eos/providers".
	ProviderPath string
	// SecretLength is the length of generated secrets (default 32, at least 16).
	SecretLength int
	// TLS configures the connection to an https Address.
	TLS TLSConfig
	// Timeout bounds each request to Vault (default 30s).
	Timeout time.Duration
	// Logger receives structured logs: paths and outcomes, never values or tokens. nil means
	// discard.
	Logger *slog.Logger
}

// AppRole holds AppRole credentials.
type AppRole struct {
	// RoleID is the role's ID. Required.
	RoleID string
	// SecretID is the role's secret ID. Never logged.
	SecretID string
	// Mount is the AppRole auth method's mount path (default "approle").
	Mount string
}

// TLSConfig configures TLS to Vault. The zero value verifies the server against the system's
// certificate pool.
type TLSConfig struct {
	// CACert is a PEM file of the CA certificates to trust.
	CACert string
	// ClientCert and ClientKey are PEM files for TLS client authentication.
	ClientCert string
	ClientKey  string
	// ServerName overrides the name checked against the server's certificate (SNI).
	ServerName string
	// Insecure disables certificate verification; for tests only.
	Insecure bool
}

// normalise checks cfg and fills in defaults.
func (cfg *Config) normalise() error {
	if cfg.Address == "" {
		return errors.New("Address is required")
	}
	switch {
	case cfg.Token != "" && cfg.AppRole != nil:
		return errors.New("set either Token or AppRole, not both")
	case cfg.Token == "" && cfg.AppRole == nil:
		return errors.New("Token or AppRole is required")
	case cfg.AppRole != nil && (cfg.AppRole.RoleID == "" || cfg.AppRole.SecretID == ""):
		return errors.New("AppRole needs both RoleID and SecretID")
	}
	if cfg.AppRole != nil && cfg.AppRole.Mount == "" {
		cfg.AppRole.Mount = DefaultAppRoleMount
	}
	if cfg.Mount == "" {
		cfg.Mount = DefaultMount
	}
	cfg.Mount = strings.Trim(cfg.Mount, "/")
	if cfg.PathTemplate == "" {
		cfg.PathTemplate = DefaultPathTemplate
	}
	switch {
	case strings.Contains(cfg.PathTemplate, "{name}"):
		return fmt.Errorf("PathTemplate %q has {name}: since one entry holds all of a unit's secrets, one key each, "+
			"the template names the entry with {env} and {service} only (default %q)", cfg.PathTemplate, DefaultPathTemplate)
	case !strings.Contains(cfg.PathTemplate, "{env}") || !strings.Contains(cfg.PathTemplate, "{service}"):
		return fmt.Errorf("PathTemplate %q lacks {env} or {service}: every unit needs its own entry", cfg.PathTemplate)
	}
	cfg.PathTemplate = strings.Trim(cfg.PathTemplate, "/")
	if cfg.ProviderPath == "" {
		cfg.ProviderPath = DefaultProviderPath
	}
	switch {
	case cfg.SecretLength == 0:
		cfg.SecretLength = DefaultSecretLength
	case cfg.SecretLength < minSecretLength:
		return fmt.Errorf("SecretLength %d is below the minimum of %d", cfg.SecretLength, minSecretLength)
	}
	switch {
	case cfg.Timeout == 0:
		cfg.Timeout = DefaultTimeout
	case cfg.Timeout < 0:
		return fmt.Errorf("Timeout %s is negative", cfg.Timeout)
	}
	return nil
}
