package vault

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/executor"
)

// ref is one secret a spec needs: its KV path under the mount and the name shown to people.
type ref struct {
	path    string // under the mount: "eos/production/grafana/admin_password"
	display string // with the mount: "secret/eos/production/grafana/admin_password"
}

// refs lists the secrets of the spec's units in spec order without duplicates. Units being
// destroyed are skipped unless withDestroyed (purging destroys their secrets).
func (s *Store) refs(spec executor.Spec, withDestroyed bool) ([]ref, error) {
	var out []ref
	seen := map[string]bool{}
	for _, u := range spec.Units {
		if u.Destroy && !withDestroyed {
			continue
		}
		for _, name := range u.Secrets {
			p, err := expandPath(s.template, spec.Env, u.Service, name)
			if err != nil {
				return nil, err
			}
			if seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, ref{path: p, display: s.mount + "/" + p})
		}
	}
	return out, nil
}

// expandPath fills in a path template. Each part must be a single, plain path segment, so a
// name can never climb out of Eos's part of the mount.
func expandPath(template, env, service, name string) (string, error) {
	for _, part := range []struct{ what, v string }{{"environment", env}, {"service", service}, {"secret name", name}} {
		if err := checkSegment(part.v); err != nil {
			return "", fmt.Errorf("%s %q: %w", part.what, part.v, err)
		}
	}
	return strings.NewReplacer("{env}", env, "{service}", service, "{name}", name).Replace(template), nil
}

// checkSegment accepts letters, digits, '.', '_' and '-', but not "." or "..".
func checkSegment(s string) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	if s == "." || s == ".." {
		return fmt.Errorf("is not a valid path segment")
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return fmt.Errorf("may contain only letters, digits, '.', '_' and '-'")
		}
	}
	return nil
}
