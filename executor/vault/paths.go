package vault

import (
	"fmt"
	"strings"

	"github.com/eosbot/eos/executor"
)

// entry is one unit's KV v2 entry: every secret of the unit is a key of it, so a Nomad
// template reads them all with one `secret` call.
type entry struct {
	path    string // under the mount: "eos/production/grafana"
	display string // with the mount: "secret/eos/production/grafana"
	keys    []string
}

// legacyPath is where Eos before the one-entry-per-unit layout kept one secret: an entry of its
// own below the unit's, holding the value under "value". Existing values are adopted from there
// (never generated again) and purged with the unit's entry.
func (e entry) legacyPath(key string) string { return e.path + "/" + key }

// keyDisplay names one secret for people: the entry and the key ("secret/eos/production/grafana#admin_password").
func (e entry) keyDisplay(key string) string { return e.display + "#" + key }

// entries lists the entries of the spec's units in spec order, each with its secrets' names
// once. Units being destroyed are skipped unless withDestroyed (purging destroys their
// secrets); units without secrets have no entry.
func (s *Store) entries(spec executor.Spec, withDestroyed bool) ([]entry, error) {
	var out []entry
	index := map[string]int{}
	for _, u := range spec.Units {
		if (u.Destroy && !withDestroyed) || len(u.Secrets) == 0 {
			continue
		}
		p, err := expandPath(s.template, spec.Env, u.Service)
		if err != nil {
			return nil, err
		}
		i, ok := index[p]
		if !ok {
			i = len(out)
			index[p] = i
			out = append(out, entry{path: p, display: s.mount + "/" + p})
		}
		for _, name := range u.Secrets {
			if err := checkSegment(name); err != nil {
				return nil, fmt.Errorf("secret name %q: %w", name, err)
			}
			if !contains(out[i].keys, name) {
				out[i].keys = append(out[i].keys, name)
			}
		}
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// expandPath fills in an entry path template. Each part must be a single, plain path segment,
// so a name can never climb out of Eos's part of the mount.
func expandPath(template, env, service string) (string, error) {
	for _, part := range []struct{ what, v string }{{"environment", env}, {"service", service}} {
		if err := checkSegment(part.v); err != nil {
			return "", fmt.Errorf("%s %q: %w", part.what, part.v, err)
		}
	}
	return strings.NewReplacer("{env}", env, "{service}", service).Replace(template), nil
}

// NomadSecretsPath is the path a Nomad job template's `secret` function reads a unit's entry
// at, with {env} and {service} left for the Nomad layer to fill in: KV v2 reads go through
// the mount's "data/" prefix ("secret/data/eos/{env}/{service}"). Empty mount and template
// mean the defaults, as in Config.
func NomadSecretsPath(mount, pathTemplate string) string {
	if mount = strings.Trim(mount, "/"); mount == "" {
		mount = DefaultMount
	}
	if pathTemplate == "" {
		pathTemplate = DefaultPathTemplate
	}
	return mount + "/data/" + strings.Trim(pathTemplate, "/")
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
