package vault

import (
	"context"
	"errors"
	"fmt"
	"time"

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
		var reuse, create []string
		err := s.retry(ctx, planRetry, "planning secrets "+e.display, func(ctx context.Context) error {
			reuse, create = nil, nil
			st, err := s.read(ctx, e)
			if err != nil {
				return err
			}
			for _, key := range e.keys {
				ok, err := st.has(e, key)
				if err == nil && !ok {
					_, ok, err = s.legacy(ctx, e, key)
				}
				if err != nil {
					return err
				}
				if ok {
					reuse = append(reuse, e.keyDisplay(key))
				} else {
					create = append(create, e.keyDisplay(key))
				}
			}
			return nil
		})
		if err != nil {
			return executor.SecretPlan{}, err
		}
		plan.Reuse, plan.Create = append(plan.Reuse, reuse...), append(plan.Create, create...)
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
		var created, reused []string
		// ensure is safe to repeat: a write whose answer was lost is found by the next read,
		// and its secrets are reused, never generated twice.
		err := s.retry(ctx, s.runRetry, "writing secrets "+e.display, func(ctx context.Context) error {
			var err error
			created, reused, err = s.ensure(ctx, e)
			return err
		})
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
		// Deleting again what was deleted changes nothing, so the entry's purge is repeated
		// whole when Vault stops answering; what an earlier attempt found stays found.
		found := map[string]bool{}
		err := s.retry(ctx, s.runRetry, "purging secrets "+e.display, func(ctx context.Context) error {
			return s.purgeEntry(ctx, e, found)
		})
		for _, key := range e.keys {
			if found[key] {
				purged = append(purged, e.keyDisplay(key))
			}
		}
		if err != nil {
			return purged, err
		}
	}
	return purged, nil
}

// purgeEntry deletes one entry and the secrets the old layout kept for it, and marks in found
// the keys that existed.
func (s *Store) purgeEntry(ctx context.Context, e entry, found map[string]bool) error {
	st, err := s.read(ctx, e)
	if err != nil {
		return err
	}
	existed, err := s.purge(ctx, e.path)
	if err != nil {
		return err
	}
	if existed {
		s.log.Info("purged secrets entry", "entry", e.display, "keys", len(st.data))
	}
	for _, key := range e.keys {
		_, inEntry := st.data[key]
		old, err := s.purge(ctx, e.legacyPath(key))
		if err != nil {
			return err
		}
		if old {
			s.log.Info("purged secret of the old layout", "path", s.mount+"/"+e.legacyPath(key))
		}
		if (existed && inEntry) || old {
			found[key] = true
		}
	}
	return nil
}

// How long a call waits for a Vault that does not answer (a restart, an upgrade): a plan
// briefly, so a wrong address does not hang the preview; a run longer.
const (
	planRetry       = 30 * time.Second
	defaultRunRetry = 2 * time.Minute
)

// retry calls fn until it succeeds, fails for a reason other than Vault not answering, or bound
// passes; it logs while Vault does not answer, at most every 5 seconds.
func (s *Store) retry(ctx context.Context, bound time.Duration, what string, fn func(context.Context) error) error {
	bctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	var said time.Time
	var lastDown error
	var down time.Duration
	err := executor.Retry(bctx, s.backoff, func(d time.Duration, err error) {
		lastDown, down = err, d
		if time.Since(said) >= 5*time.Second {
			said = time.Now()
			s.log.Warn("Vault not answering, retrying", "for", what, "down", d.Round(time.Second), "error", err)
		}
	}, fn)
	switch {
	case err == nil:
		return nil
	case lastDown != nil && bctx.Err() != nil && ctx.Err() == nil:
		// The bound passed while Vault was away, whether between attempts or during one.
		return fmt.Errorf("Vault at %s: not answering for %s: %w", s.addr, down.Round(time.Second), lastDown)
	case executor.Transient(errors.Unwrap(err)):
		return fmt.Errorf("Vault at %s: %w", s.addr, err)
	}
	return err
}
