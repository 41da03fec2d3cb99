package vault

import (
	"context"

	"github.com/eosbot/eos/executor"
)

// PlanSecrets reports, for every secret the spec's units need (units being destroyed need
// none), whether it exists (Reuse: in the unit's entry, or where the old layout kept it) or
// would be generated (Create). Secrets are named "<mount>/<entry>#<key>". It changes nothing.
func (s *Store) PlanSecrets(ctx context.Context, spec executor.Spec) (executor.SecretPlan, error) {
	entries, err := s.entries(spec, false)
	if err != nil {
		return executor.SecretPlan{}, err
	}
	var plan executor.SecretPlan
	for _, e := range entries {
		st, err := s.read(ctx, e)
		if err != nil {
			return executor.SecretPlan{}, err
		}
		for _, key := range e.keys {
			ok, err := st.has(e, key)
			if err == nil && !ok {
				_, ok, err = s.legacy(ctx, e, key)
			}
			if err != nil {
				return executor.SecretPlan{}, err
			}
			if ok {
				plan.Reuse = append(plan.Reuse, e.keyDisplay(key))
			} else {
				plan.Create = append(plan.Create, e.keyDisplay(key))
			}
		}
	}
	return plan, nil
}

// EnsureSecrets generates and writes the secrets that do not exist yet, one check-and-set
// write per unit's entry (see ensure). Existing secrets are never overwritten, and other keys
// of an entry are kept.
func (s *Store) EnsureSecrets(ctx context.Context, spec executor.Spec) (executor.SecretPlan, error) {
	entries, err := s.entries(spec, false)
	if err != nil {
		return executor.SecretPlan{}, err
	}
	var done executor.SecretPlan
	for _, e := range entries {
		created, reused, err := s.ensure(ctx, e)
		if err != nil {
			return done, err
		}
		for _, key := range created {
			done.Create = append(done.Create, e.keyDisplay(key))
		}
		for _, key := range reused {
			done.Reuse = append(done.Reuse, e.keyDisplay(key))
		}
	}
	return done, nil
}

// PurgeSecrets deletes every version and the metadata of the spec's units' entries (units
// being destroyed included; an entry goes with all its keys) and of the secrets the old layout
// kept for them, and returns the secrets that existed.
func (s *Store) PurgeSecrets(ctx context.Context, spec executor.Spec) ([]string, error) {
	entries, err := s.entries(spec, true)
	if err != nil {
		return nil, err
	}
	var purged []string
	for _, e := range entries {
		st, err := s.read(ctx, e)
		if err != nil {
			return purged, err
		}
		existed, err := s.purge(ctx, e.path)
		if err != nil {
			return purged, err
		}
		if existed {
			s.log.Info("purged secrets entry", "entry", e.display, "keys", len(st.data))
		}
		for _, key := range e.keys {
			_, inEntry := st.data[key]
			old, err := s.purge(ctx, e.legacyPath(key))
			if err != nil {
				return purged, err
			}
			if old {
				s.log.Info("purged secret of the old layout", "path", s.mount+"/"+e.legacyPath(key))
			}
			if (existed && inEntry) || old {
				purged = append(purged, e.keyDisplay(key))
			}
		}
	}
	return purged, nil
}
