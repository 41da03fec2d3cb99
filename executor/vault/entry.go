package vault

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/vault/api"
)

// stored is what Vault holds at a unit's entry.
type stored struct {
	// data is the latest version's keys; nil when the entry was never written or its latest
	// version is deleted or destroyed.
	data map[string]any
	// version is the entry's latest version number, 0 when it was never written; a
	// check-and-set write must name it.
	version int
}

// read reads a unit's entry.
func (s *Store) read(ctx context.Context, e entry) (stored, error) {
	sec, err := s.kv.Get(ctx, e.path)
	switch {
	case errors.Is(err, api.ErrSecretNotFound):
		return stored{}, nil
	case err != nil:
		return stored{}, fmt.Errorf("reading secrets %s: %w", e.display, err)
	}
	st := stored{data: sec.Data}
	if sec.VersionMetadata != nil {
		st.version = sec.VersionMetadata.Version
	}
	return st, nil
}

// has reports whether the entry holds the secret key. A key that is there but not a
// non-empty string is an error, because reusing it would hand a workload nothing.
func (st stored) has(e entry, key string) (bool, error) {
	v, ok := st.data[key]
	if !ok {
		return false, nil
	}
	if s, isString := v.(string); !isString || s == "" {
		return false, fmt.Errorf("secret %s exists but is not a non-empty string: fix or delete it in Vault", e.keyDisplay(key))
	}
	return true, nil
}

// legacy reads a secret from where the layout before one entry per unit kept it (see
// entry.legacyPath); found is false when it is not there.
func (s *Store) legacy(ctx context.Context, e entry, key string) (value string, found bool, err error) {
	p := e.legacyPath(key)
	sec, err := s.kv.Get(ctx, p)
	switch {
	case errors.Is(err, api.ErrSecretNotFound):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("reading secret %s/%s: %w", s.mount, p, err)
	case sec.Data == nil:
		return "", false, nil
	}
	v, ok := sec.Data[legacyValueKey].(string)
	if !ok || v == "" {
		return "", false, fmt.Errorf("secret %s/%s (the layout before one entry per service) has no non-empty string %q: fix or delete it in Vault",
			s.mount, p, legacyValueKey)
	}
	return v, true, nil
}

// legacyValueKey is the key the old layout kept each secret's value under.
const legacyValueKey = "value"

// maxWriteAttempts bounds how often ensure reads and writes an entry that other writers keep
// changing between its read and its check-and-set write.
const maxWriteAttempts = 5

// ensure makes sure the entry holds each of its keys: a key already there is reused, one the
// old layout kept is adopted, the rest are generated. The entry is written once, with every
// key it held kept, as a check-and-set against the version read, so a concurrent writer's
// keys (another Eos, an operator) are never lost: on a conflict the entry is read again and
// what they wrote stands.
func (s *Store) ensure(ctx context.Context, e entry) (created, reused []string, err error) {
	for range maxWriteAttempts {
		st, err := s.read(ctx, e)
		if err != nil {
			return nil, nil, err
		}
		data := make(map[string]any, len(st.data)+len(e.keys))
		for k, v := range st.data {
			data[k] = v
		}
		created, reused = nil, nil
		var adopted []string
		for _, key := range e.keys {
			ok, err := st.has(e, key)
			if err != nil {
				return nil, nil, err
			}
			if ok {
				reused = append(reused, key)
				continue
			}
			v, found, err := s.legacy(ctx, e, key)
			if err != nil {
				return nil, nil, err
			}
			if found {
				data[key] = v
				reused, adopted = append(reused, key), append(adopted, key)
				continue
			}
			data[key] = s.generate(s.length)
			created = append(created, key)
		}
		if len(created) == 0 && len(adopted) == 0 {
			s.log.Info("reusing secrets", "entry", e.display, "keys", strings.Join(reused, ","))
			return nil, reused, nil
		}
		_, err = s.kv.Put(ctx, e.path, data, api.WithCheckAndSet(st.version))
		if err == nil {
			s.log.Info("generated secrets", "entry", e.display, "generated", strings.Join(created, ","),
				"adopted_from_old_layout", strings.Join(adopted, ","), "reused", strings.Join(reused, ","))
			return created, reused, nil
		}
		if !isCASConflict(err) {
			return nil, nil, fmt.Errorf("writing secrets %s: %w", e.display, err)
		}
		s.log.Info("secrets entry was written concurrently by another writer; reading it again", "entry", e.display)
	}
	return nil, nil, fmt.Errorf("writing secrets %s: other writers changed it %d times in a row; try again", e.display, maxWriteAttempts)
}

// isCASConflict reports whether err is KV v2's refusal of a check-and-set write.
func isCASConflict(err error) bool {
	var re *api.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 400 {
		return false
	}
	for _, e := range re.Errors {
		if strings.Contains(e, "check-and-set") {
			return true
		}
	}
	return false
}

// purge deletes every version and the metadata of a path; existed is false when there was
// nothing.
func (s *Store) purge(ctx context.Context, path string) (existed bool, err error) {
	_, err = s.kv.GetMetadata(ctx, path)
	if errors.Is(err, api.ErrSecretNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading secret metadata %s/%s: %w", s.mount, path, err)
	}
	if err := s.kv.DeleteMetadata(ctx, path); err != nil {
		return false, fmt.Errorf("purging secrets %s/%s: %w", s.mount, path, err)
	}
	return true, nil
}
