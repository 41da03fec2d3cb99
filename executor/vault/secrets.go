package vault

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/vault/api"

	"github.com/eosbot/eos/executor"
)

// valueKey is the key a secret's value is stored under in its KV entry.
const valueKey = "value"

// current is what Vault holds at a secret's path.
type current struct {
	exists bool
	// version is the path's latest version number, 0 when the path was never written; a
	// check-and-set write must name it.
	version int
}

// PlanSecrets reports, for every secret the spec's units need (units being destroyed need
// none), whether it exists (Reuse) or would be generated (Create). It changes nothing.
func (s *Store) PlanSecrets(ctx context.Context, spec executor.Spec) (executor.SecretPlan, error) {
	refs, err := s.refs(spec, false)
	if err != nil {
		return executor.SecretPlan{}, err
	}
	var plan executor.SecretPlan
	for _, r := range refs {
		cur, err := s.lookup(ctx, r)
		if err != nil {
			return executor.SecretPlan{}, err
		}
		if cur.exists {
			plan.Reuse = append(plan.Reuse, r.display)
		} else {
			plan.Create = append(plan.Create, r.display)
		}
	}
	return plan, nil
}

// EnsureSecrets generates and writes the secrets that do not exist yet. Each write is a
// check-and-set against the version PlanSecrets-style lookup saw, so it succeeds only if
// nobody wrote the path in between; when someone did (another Eos), their secret is reused.
// Existing secrets are never overwritten.
func (s *Store) EnsureSecrets(ctx context.Context, spec executor.Spec) (executor.SecretPlan, error) {
	refs, err := s.refs(spec, false)
	if err != nil {
		return executor.SecretPlan{}, err
	}
	var done executor.SecretPlan
	for _, r := range refs {
		created, err := s.ensure(ctx, r)
		if err != nil {
			return done, err
		}
		if created {
			done.Create = append(done.Create, r.display)
		} else {
			done.Reuse = append(done.Reuse, r.display)
		}
	}
	return done, nil
}

// ensure makes sure one secret exists and reports whether it generated it.
func (s *Store) ensure(ctx context.Context, r ref) (bool, error) {
	cur, err := s.lookup(ctx, r)
	if err != nil {
		return false, err
	}
	if cur.exists {
		s.log.Info("reusing secret", "path", r.display)
		return false, nil
	}
	_, err = s.kv.Put(ctx, r.path, map[string]any{valueKey: s.generate(s.length)}, api.WithCheckAndSet(cur.version))
	if err == nil {
		s.log.Info("generated secret", "path", r.display)
		return true, nil
	}
	if !isCASConflict(err) {
		return false, fmt.Errorf("writing secret %s: %w", r.display, err)
	}
	// Someone wrote the path since the lookup: theirs stands.
	again, lerr := s.lookup(ctx, r)
	if lerr != nil {
		return false, lerr
	}
	if !again.exists {
		return false, fmt.Errorf("writing secret %s: %w", r.display, err)
	}
	s.log.Info("secret was written concurrently by another writer; reusing it", "path", r.display)
	return false, nil
}

// lookup reads a secret's state. A path whose latest version is deleted or destroyed does not
// exist (it will be generated again); an entry without a non-empty string "value" is an error,
// because reusing it would hand a blueprint nothing.
func (s *Store) lookup(ctx context.Context, r ref) (current, error) {
	sec, err := s.kv.Get(ctx, r.path)
	switch {
	case errors.Is(err, api.ErrSecretNotFound):
		return current{}, nil
	case err != nil:
		return current{}, fmt.Errorf("reading secret %s: %w", r.display, err)
	}
	version := 0
	if sec.VersionMetadata != nil {
		version = sec.VersionMetadata.Version
	}
	if sec.Data == nil {
		return current{version: version}, nil
	}
	if v, ok := sec.Data[valueKey].(string); !ok || v == "" {
		return current{}, fmt.Errorf("secret %s exists but has no non-empty string %q: fix or delete it in Vault", r.display, valueKey)
	}
	return current{exists: true, version: version}, nil
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

// PurgeSecrets deletes every version and the metadata of the spec's secrets (units being
// destroyed included) and returns the paths that existed.
func (s *Store) PurgeSecrets(ctx context.Context, spec executor.Spec) ([]string, error) {
	refs, err := s.refs(spec, true)
	if err != nil {
		return nil, err
	}
	var purged []string
	for _, r := range refs {
		_, err := s.kv.GetMetadata(ctx, r.path)
		if errors.Is(err, api.ErrSecretNotFound) {
			continue
		}
		if err != nil {
			return purged, fmt.Errorf("reading secret metadata %s: %w", r.display, err)
		}
		if err := s.kv.DeleteMetadata(ctx, r.path); err != nil {
			return purged, fmt.Errorf("purging secret %s: %w", r.display, err)
		}
		s.log.Info("purged secret", "path", r.display)
		purged = append(purged, r.display)
	}
	return purged, nil
}
