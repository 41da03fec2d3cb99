package vault

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/vault/api"
)

// ProviderEnv reads provider credentials from Config.ProviderPath, one KV key per environment
// variable, and returns the named ones for a child process's environment (Terraform, Nomad's
// API client). Every name must be present with a non-empty string value; the error names the
// missing keys, never a value. The result must not be logged.
func (s *Store) ProviderEnv(ctx context.Context, names []string) (map[string]string, error) {
	for _, n := range names {
		if !isEnvName(n) {
			return nil, fmt.Errorf("provider credential name %q is not an environment variable name", n)
		}
	}
	display := s.mount + "/" + s.provider
	if len(names) == 0 {
		return map[string]string{}, nil
	}
	sec, err := s.kv.Get(ctx, s.provider)
	switch {
	case errors.Is(err, api.ErrSecretNotFound):
		return nil, fmt.Errorf("provider credentials %s do not exist in Vault: write %s there", display, strings.Join(names, ", "))
	case err != nil:
		return nil, fmt.Errorf("reading provider credentials %s: %w", display, err)
	case sec.Data == nil:
		return nil, fmt.Errorf("provider credentials %s are deleted in Vault", display)
	}
	env := make(map[string]string, len(names))
	var missing []string
	for _, n := range names {
		v, ok := sec.Data[n].(string)
		if !ok || v == "" {
			missing = append(missing, n)
			continue
		}
		env[n] = v
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("provider credentials %s lack %s", display, strings.Join(missing, ", "))
	}
	s.log.Info("read provider credentials", "path", display, "names", names)
	return env, nil
}

// isEnvName accepts POSIX environment variable names: a letter or underscore, then letters,
// digits and underscores.
func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
